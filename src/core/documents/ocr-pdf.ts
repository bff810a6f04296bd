import type { PDFDocumentProxy } from 'pdfjs-dist';
import { OcrSession, ocrPages, type OcrOptions, type OcrPage } from './ocr';

/**
 * Resolution pages are rendered at for OCR: at 300 dpi Tesseract reads a page at
 * confidence ~95; at 150 dpi the same page comes back as garbage (DESIGN.md §7).
 */
export const OCR_DPI = 300;

interface CanvasAndContext {
  canvas: unknown;
  context: unknown;
}

/**
 * pdf.js's canvas factory for a web worker, where its default (DOMCanvasFactory) has no
 * document to create canvases with: OffscreenCanvas instead. Node uses pdf.js's own
 * (@napi-rs/canvas), a page's window its DOM one.
 */
class OffscreenCanvasFactory {
  create(width: number, height: number): CanvasAndContext {
    const Offscreen = (globalThis as unknown as { OffscreenCanvas: new (w: number, h: number) => { getContext(t: string): unknown } }).OffscreenCanvas;
    const canvas = new Offscreen(width, height);
    return { canvas, context: canvas.getContext('2d') };
  }
  reset(cc: CanvasAndContext, width: number, height: number): void {
    const c = cc.canvas as { width: number; height: number };
    c.width = width;
    c.height = height;
  }
  destroy(cc: CanvasAndContext): void {
    this.reset(cc, 0, 0);
    cc.canvas = null;
    cc.context = null;
  }
}

/** The CanvasFactory to give pdf.js's getDocument here, or undefined for its default. */
export function pdfCanvasFactory(): typeof OffscreenCanvasFactory | undefined {
  const g = globalThis as { document?: unknown; OffscreenCanvas?: unknown; process?: { versions?: { node?: string } } };
  return g.document === undefined && g.OffscreenCanvas !== undefined && !g.process?.versions?.node ? OffscreenCanvasFactory : undefined;
}

/** A rendered canvas as PNG bytes: OffscreenCanvas in a worker, @napi-rs/canvas in Node. */
async function encodePng(canvas: unknown): Promise<Uint8Array> {
  const c = canvas as { convertToBlob?: (o: { type: string }) => Promise<Blob>; toBuffer?: (t: string) => Uint8Array };
  if (c.convertToBlob) return new Uint8Array(await (await c.convertToBlob({ type: 'image/png' })).arrayBuffer());
  if (c.toBuffer) return new Uint8Array(c.toBuffer('image/png'));
  throw new Error('cannot encode the rendered page');
}

/** Renders one PDF page at OCR_DPI as PNG bytes. */
export async function renderPage(doc: PDFDocumentProxy, pageNumber: number): Promise<Uint8Array> {
  const page = await doc.getPage(pageNumber);
  const viewport = page.getViewport({ scale: OCR_DPI / 72 });
  const factory = doc.canvasFactory as { create(w: number, h: number): CanvasAndContext; destroy(cc: CanvasAndContext): void };
  const cc = factory.create(Math.ceil(viewport.width), Math.ceil(viewport.height));
  try {
    const ctx = cc.context as { fillStyle: string; fillRect(x: number, y: number, w: number, h: number): void };
    // A white page: a transparent background would reach Tesseract as black.
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, Math.ceil(viewport.width), Math.ceil(viewport.height));
    await page.render({ canvasContext: cc.context as CanvasRenderingContext2D, canvas: cc.canvas as HTMLCanvasElement, viewport }).promise;
    return await encodePng(cc.canvas);
  } finally {
    factory.destroy(cc);
    page.cleanup();
  }
}

/** OCRs the given pages (those with no text layer), one Tesseract worker for them all. */
export async function ocrPdfPages(doc: PDFDocumentProxy, pages: number[], fileName: string, options: OcrOptions): Promise<Map<number, OcrPage>> {
  const session = await OcrSession.open(fileName, options.language);
  try {
    return await ocrPages(pages, fileName, options, async (p) => session.read(await renderPage(doc, p)));
  } finally {
    await session.close();
  }
}
