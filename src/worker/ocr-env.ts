/**
 * OCR in the browser: tesseract.js's worker script, its WebAssembly core and the language
 * data all come from this site (tesseract.js fetches them from a CDN by default, which the
 * page's policy and its offline promise forbid). The worker script and the core are assets
 * of the build; the language data is emitted by vite.config.ts as assets/tesseract/, next to
 * the chunk holding this module.
 */
import tesseractWorkerUrl from 'tesseract.js/dist/worker.min.js?url';
import tesseractCoreUrl from 'tesseract.js-core/tesseract-core-simd-lstm.wasm.js?url';
import { setOcrEnvironment } from '../core/documents/ocr';

declare const __RAG_LAB_OCR_LANGUAGES__: string[] | undefined;

const installed = typeof __RAG_LAB_OCR_LANGUAGES__ !== 'undefined' ? __RAG_LAB_OCR_LANGUAGES__ : [];
const absolute = (url: string) => new URL(url, self.location.href).href;

setOcrEnvironment({
  installed,
  langPath: (code) => (installed.includes(code) ? new URL('./tesseract', import.meta.url).href : null),
  // Not a blob: worker (the policy allows this origin's scripts); the SIMD LSTM core every current browser runs.
  workerOptions: { workerPath: absolute(tesseractWorkerUrl), corePath: absolute(tesseractCoreUrl), workerBlobURL: false },
});
