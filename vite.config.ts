import { createReadStream, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { createRequire } from 'node:module';
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

/**
 * OCR language data, served by the site itself (tesseract.js would fetch it from a CDN): every
 * installed @tesseract.js-data/<code> package, or those RAG_LAB_OCR_LANGUAGES lists
 * ("eng,por"). Built as assets/tesseract/<code>.traineddata.gz, next to the worker chunk that
 * fetches them; dev serves the same names from node_modules. The list reaches the worker as
 * __RAG_LAB_OCR_LANGUAGES__.
 */
function ocrLanguageData(): Plugin {
  const require = createRequire(import.meta.url);
  const wanted = process.env.RAG_LAB_OCR_LANGUAGES?.split(',').map((s) => s.trim()).filter(Boolean);
  const file = (code: string): string | null => {
    try {
      const f = resolve(dirname(require.resolve(`@tesseract.js-data/${code}/package.json`)), '4.0.0', `${code}.traineddata.gz`);
      return existsSync(f) ? f : null;
    } catch {
      return null;
    }
  };
  const all = ['eng', 'por', 'spa', 'fra', 'deu', 'chi_sim', 'ita', 'nld', 'jpn', 'rus', 'ara', 'kor'];
  const codes = (wanted ?? all).filter((c) => /^[a-z_]+$/.test(c) && file(c) !== null);
  return {
    name: 'rag-lab:ocr-language-data',
    config: () => ({ define: { __RAG_LAB_OCR_LANGUAGES__: JSON.stringify(codes) } }),
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const m = /\/tesseract\/([a-z_]+)\.traineddata\.gz$/.exec(req.url?.split('?')[0] ?? '');
        const f = m && codes.includes(m[1]!) ? file(m[1]!) : null;
        if (!f) return next();
        res.setHeader('Content-Type', 'application/octet-stream');
        createReadStream(f).pipe(res);
      });
    },
    generateBundle() {
      for (const c of codes) this.emitFile({ type: 'asset', fileName: `assets/tesseract/${c}.traineddata.gz`, source: readFileSync(file(c)!) });
    },
  };
}

export default defineConfig({
  // Relative asset paths: the built folder works from any static host and sub-path.
  base: './',
  plugins: [react(), wasm(), dropTestModels(), contentSecurityPolicy(), ocrLanguageData()],
  worker: { format: 'es', plugins: () => [wasm()] },
  // PGlite and its pgvector extension find their wasm, data and extension files next to their
  // modules (new URL(…, import.meta.url)): pre-bundling would move the modules away from them.
  optimizeDeps: { exclude: ['@huggingface/transformers', 'voy-search', '@electric-sql/pglite', '@electric-sql/pglite-pgvector'] },
  server: { headers: isolation },
  // Preview also sends the policy as a header, which covers the worker's own requests too.
  preview: { headers: { ...isolation, 'Content-Security-Policy': CONTENT_SECURITY_POLICY } },
  build: { target: 'es2022' },
});
