import { readdirSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import wasm from 'vite-plugin-wasm';

/** Cross-origin isolation lets ONNX Runtime use two WASM threads (half the time per batch). */
const isolation = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

/**
 * public/models/rag-lab/ holds the generated TEST models (served in dev); they never ship in
 * a deployed build, except when the e2e tests build with RAG_LAB_TEST_MODELS=1.
 */
function dropTestModels(): Plugin {
  let outDir = 'dist';
  return {
    name: 'rag-lab:drop-test-models',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      // The e2e tests deploy the test models like self-hosted models.
      if (process.env.RAG_LAB_TEST_MODELS === '1') return;
      const models = resolve(outDir, 'models');
      rmSync(resolve(models, 'rag-lab'), { recursive: true, force: true });
      try {
        if (readdirSync(models).length === 0) rmSync(models, { recursive: true });
      } catch {
        // no models folder at all
      }
    },
  };
}

export default defineConfig({
  // Relative asset paths: the built folder works from any static host and sub-path.
  base: './',
  plugins: [react(), wasm(), dropTestModels()],
  worker: { format: 'es', plugins: () => [wasm()] },
  optimizeDeps: { exclude: ['@huggingface/transformers', 'voy-search'] },
  server: { headers: isolation },
  preview: { headers: isolation },
  build: { target: 'es2022' },
});
