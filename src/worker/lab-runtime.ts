/**
 * The worker's runtime set up from the page's start-up options: ONNX Runtime's self-hosted
 * files and threads, voy's wasm, and pdf.js (imported only when a PDF arrives).
 */
import { setPdfJsLoader, type PdfJs } from '../core/documents/pdf';
import { setVoyWasmSource } from '../core/index/voy-index';
import { configureRuntime } from './model-env';
import type { InitOptions } from './protocol';

export function configureLabRuntime(options: InitOptions): void {
  configureRuntime(options.ortWasm, options.threads);
  setVoyWasmSource(async () => (await fetch(options.voyWasm)).arrayBuffer());
  setPdfJsLoader(async () => {
    const pdfjs = (await import('pdfjs-dist/legacy/build/pdf.mjs')) as unknown as PdfJs;
    pdfjs.GlobalWorkerOptions.workerSrc = options.pdfWorkerUrl;
    return pdfjs;
  });
}
