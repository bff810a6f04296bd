import type { OcrSpan } from '../types';
import { LoaderError, type DocumentBuilder } from './builder';
import { OcrSession, ocrPages, type OcrOptions } from './ocr';

/** An image (.png, .jpg, .webp, .tiff) read by OCR as one page; paragraphs below the confidence floor are dropped. */
export async function parseImage(bytes: Uint8Array, fileName: string, b: DocumentBuilder, options: OcrOptions): Promise<{ spans: OcrSpan[]; confidence: number }> {
  const session = await OcrSession.open(fileName, options.language);
  let page;
  try {
    page = (await ocrPages([1], fileName, options, () => session.read(bytes))).get(1)!;
  } catch (e) {
    if (e instanceof LoaderError) throw e;
    throw new LoaderError((e as Error).message, fileName);
  } finally {
    await session.close();
  }
  if (!page.paragraphs.length) throw new LoaderError('no text found in the image by OCR', fileName);
  const spans: OcrSpan[] = [];
  b.beginPage();
  for (const p of page.paragraphs) {
    const span = b.block(p.text);
    if (span) spans.push({ ...span, confidence: p.confidence });
  }
  b.endPage(1);
  b.warnings.push(`read by OCR (mean confidence ${Math.round(page.confidence)})`);
  return { spans, confidence: page.confidence };
}
