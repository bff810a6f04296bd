import { zlibSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { nodeOcrEnvironment } from '../../node/ocr-env';
import { textImage } from '../../node/text-image';
import { LoaderError } from './builder';
import { loadDocument } from './load';
import { setOcrEnvironment, type OcrProgress } from './ocr';
import { imagePdf } from './office-fixtures';
import { wordErrorRate } from './wer';

/**
 * OCR is slow (Tesseract starts in seconds, reads a 300-dpi page in several): ONE page is
 * read here. Measured on this machine: WER 0 (all 27 words right), confidence 96.
 */
const LINES = ['The committee met on Tuesday to review the budget.', 'Funding for the northern library rose by twelve percent,', 'while the harbour project was postponed until spring.'];
const REFERENCE = LINES.join(' ');

beforeAll(() => setOcrEnvironment(nodeOcrEnvironment()));

describe('OCR', () => {
  it('reads a scanned PDF page (an image only) and keeps the text layer of the page that has one', async () => {
    const scan = textImage(LINES, { dpi: 300 });
    const pdf = imagePdf([{ text: 'A page with a real text layer.' }, { gray: scan.gray, width: scan.width, height: scan.height, dpi: 300 }], (d) => zlibSync(d));
    const progress: OcrProgress[] = [];
    const d = await loadDocument({ name: 'minutes.pdf', bytes: pdf }, { onOcrProgress: (p) => progress.push(p) });
    const [textPage, scannedPage] = d.pages;
    expect(d.text.slice(textPage!.start, textPage!.end)).toBe('A page with a real text layer.');
    expect(textPage!.ocrConfidence).toBeUndefined();
    const read = d.text.slice(scannedPage!.start, scannedPage!.end);
    const wer = wordErrorRate(REFERENCE, read);
    expect(wer).toBeLessThanOrEqual(0.05); // measured 0; the bound allows one word in 20 wrong
    expect(scannedPage!.ocrConfidence).toBeGreaterThan(80);
    // Every OCR'd paragraph is a span with its confidence, inside the scanned page.
    expect(d.ocr!.length).toBeGreaterThan(0);
    for (const s of d.ocr!) {
      expect(s.start).toBeGreaterThanOrEqual(scannedPage!.start);
      expect(s.end).toBeLessThanOrEqual(scannedPage!.end);
      expect(s.confidence).toBeGreaterThan(80);
    }
    expect(d.warnings).toEqual(['page 2 read by OCR']);
    expect(progress).toHaveLength(1);
    expect(progress[0]).toMatchObject({ page: 1, pages: 1, remainingMs: 0 });
  }, 120_000);

  it('names a language that is not installed, and the installed ones, before starting OCR', async () => {
    const scan = textImage(['x'], { dpi: 100, widthInches: 1 });
    const e = await loadDocument({ name: 'scan.png', bytes: scan.png, language: 'it' }).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(LoaderError);
    expect((e as Error).message).toBe('scan.png: the OCR language Italian (ita) is not installed; installed: English, Portuguese, Spanish, French, German, Chinese (simplified)');
  });

  it('says so when OCR is not set up (a build without it)', async () => {
    setOcrEnvironment(null);
    const scan = textImage(['x'], { dpi: 100, widthInches: 1 });
    await expect(loadDocument({ name: 'scan.png', bytes: scan.png })).rejects.toThrow('scan.png: OCR is not available here (no OCR environment is set up)');
    setOcrEnvironment(nodeOcrEnvironment());
  });
});
