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
 * What the page may load and connect to: its own origin, the Hugging Face hub (and its file
 * CDN) for models the user chooses to download, and the OpenAI-compatible endpoint the user
 * types in for generation — any https host, or plain http on this machine only (Ollama, LM
 * Studio, llama.cpp). Endpoints cannot be listed in advance, and a meta policy cannot change
 * at run time; the page itself connects nowhere until the user sets an endpoint and asks.
 * Plain http to other machines stays refused: an https page could not reach it anyway
 * (mixed content), and the text would travel unencrypted. No inline scripts; WebAssembly may
 * be compiled (ONNX Runtime, voy); ONNX Runtime's threads are blob: workers.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "worker-src 'self' blob:",
  "connect-src 'self' blob: data: https://huggingface.co https://*.huggingface.co https://*.hf.co https: http://localhost:* http://127.0.0.1:*",
  "img-src 'self' data: blob:",
  "style-src 'self' 'unsafe-inline'",
  "font-src 'self' data:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'none'",
].join('; ');

/** The policy as a <meta> in built pages (static hosts cannot send headers); dev keeps Vite's inline helpers. */
function contentSecurityPolicy(): Plugin {
  return {
    name: 'rag-lab:csp',
    apply: 'build',
    transformIndexHtml(html) {
      return html.replace('<meta charset="UTF-8" />', `<meta charset="UTF-8" />\n    <meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}" />`);
    },
  };
}

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
  plugins: [react(), wasm(), dropTestModels(), contentSecurityPolicy()],
  worker: { format: 'es', plugins: () => [wasm()] },
  // PGlite and its pgvector extension find their wasm, data and extension files next to their
  // modules (new URL(…, import.meta.url)): pre-bundling would move the modules away from them.
  optimizeDeps: { exclude: ['@huggingface/transformers', 'voy-search', '@electric-sql/pglite', '@electric-sql/pglite-pgvector'] },
  server: { headers: isolation },
  // Preview also sends the policy as a header, which covers the worker's own requests too.
  preview: { headers: { ...isolation, 'Content-Security-Policy': CONTENT_SECURITY_POLICY } },
  build: { target: 'es2022' },
});
