import workerUrl from 'pdfjs-dist/legacy/build/pdf.worker.min.mjs?url';
import { setPdfJsLoader, type PdfJs } from '../core/documents/pdf';

/**
 * The browser uses the same pdf.js build as Node (the legacy build runs everywhere),
 * with pdf.js's worker file served by Vite.
 */
export function setupBrowserPdf(): void {
  setPdfJsLoader(async () => {
    const pdfjs = (await import('pdfjs-dist/legacy/build/pdf.mjs')) as unknown as PdfJs;
    pdfjs.GlobalWorkerOptions.workerSrc = workerUrl;
    return pdfjs;
  });
}
