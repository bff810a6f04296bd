/** Vite config of the indexing harness (scripts/bench/browser), built by run.ts. */
import { resolve } from 'node:path';
import { defineConfig } from 'vite';
import wasm from 'vite-plugin-wasm';

export const HARNESS_OUT = resolve(import.meta.dirname, '../../node_modules/.cache/rag-lab-bench/harness');

export default defineConfig({
  root: resolve(import.meta.dirname, 'browser'),
  base: './',
  publicDir: false,
  logLevel: 'warn',
  plugins: [wasm()],
  worker: { format: 'es', plugins: () => [wasm()] },
  optimizeDeps: { exclude: ['@huggingface/transformers', 'voy-search'] },
  build: { target: 'es2022', outDir: HARNESS_OUT, emptyOutDir: true, chunkSizeWarningLimit: 100000 },
});
