import type { Worker as TesseractWorker } from 'tesseract.js';
import { LoaderError, collapseSpaces } from './builder';
import { OCR_LANGUAGES } from './ocr-languages';

/**
 * Where OCR finds its parts. tesseract.js would fetch its worker, core and language data
 * from a CDN by default; the page and the offline promise forbid that, so each
 * environment says where its own copies are: Node reads the installed packages
 * (src/node/ocr-env.ts), the web worker the files the site serves (src/worker/ocr-env.ts).
 */
export interface OcrEnvironment {
  /** Tesseract codes whose data is installed ('eng', 'por', …). */
  installed: readonly string[];
  /** The folder (a path in Node, a URL in the browser) holding `<code>.traineddata.gz`, or null when the language is not installed. */
  langPath(code: string): string | null;
  /** createWorker options: workerPath and corePath in the browser. */
  workerOptions?: Record<string, unknown>;
}

let environment: OcrEnvironment | null = null;

export function setOcrEnvironment(env: OcrEnvironment | null): void {
  environment = env;
}

/** Whether OCR is set up here (a build or a test may run without it). */
export function ocrAvailable(): boolean {
  return environment !== null;
}

export { OCR_LANGUAGES } from './ocr-languages';

const nameOf = (code: string) => Object.values(OCR_LANGUAGES).find((l) => l.code === code)?.name ?? code;

export interface OcrProgress {
  /** 1-based page just finished, of `pages`. */
  page: number;
  pages: number;
  elapsedMs: number;
  /** Estimated time left, from the pages done so far. */
  remainingMs: number;
}

export interface OcrOptions {
  /** The document's language choice ('en', 'pt', …); English when unset. */
  language?: string;
  onOcrProgress?: (p: OcrProgress) => void;
  signal?: AbortSignal;
}

export interface OcrParagraph {
  text: string;
  /** Tesseract's confidence, 0–100. */
  confidence: number;
}

export interface OcrPage {
  paragraphs: OcrParagraph[];
  /** Mean confidence of the kept paragraphs, weighted by length. */
  confidence: number;
}

/** Paragraphs Tesseract reads below this confidence are noise (specks, lines, photos), not text. */
export const MIN_PARAGRAPH_CONFIDENCE = 40;

/** One Tesseract worker for a run of pages (starting it costs a second or two: not once per page). */
export class OcrSession {
  private constructor(
    private readonly worker: TesseractWorker,
    readonly language: string,
  ) {}

  static async open(fileName: string, language = 'en'): Promise<OcrSession> {
    const env = environment;
    if (!env) throw new LoaderError('OCR is not available here (no OCR environment is set up)', fileName);
    const tag = language.split('-')[0]!.toLowerCase();
    const lang = OCR_LANGUAGES[tag];
    const installed = env.installed.map(nameOf).join(', ');
    if (!lang) throw new LoaderError(`OCR has no language data for "${language}"; installed: ${installed}`, fileName);
    const langPath = env.installed.includes(lang.code) ? env.langPath(lang.code) : null;
    if (!langPath) throw new LoaderError(`the OCR language ${lang.name} (${lang.code}) is not installed; installed: ${installed}`, fileName);
    const { createWorker, OEM } = await import('tesseract.js');
    let worker: TesseractWorker;
    try {
      worker = await createWorker(lang.code, OEM.LSTM_ONLY, {
        langPath,
        gzip: true,
        cacheMethod: 'none', // never write traineddata to the working folder or IndexedDB
        // Without a handler tesseract.js rethrows a job's failure outside any promise (an uncaught error).
        errorHandler: () => undefined,
        ...(env.workerOptions ?? {}),
      });
    } catch (e) {
      throw new LoaderError(`OCR could not start (${errorText(e)})`, fileName);
    }
    return new OcrSession(worker, lang.code);
  }

  /** Reads one image (PNG, JPEG, WebP, TIFF bytes). */
  async read(image: Uint8Array): Promise<OcrPage> {
    let result;
    try {
      // tesseract.js takes image bytes as a Buffer in Node and a Uint8Array in the browser alike.
      result = await this.worker.recognize(image as unknown as Blob, {}, { blocks: true, text: false });
    } catch (e) {
      throw new Error(`the image cannot be read (${errorText(e)})`);
    }
    const paragraphs: OcrParagraph[] = [];
    for (const block of result.data.blocks ?? []) {
      for (const p of block.paragraphs) {
        const text = collapseSpaces(p.text);
        if (text && /[\p{L}\p{N}]/u.test(text) && p.confidence >= MIN_PARAGRAPH_CONFIDENCE) paragraphs.push({ text, confidence: p.confidence });
      }
    }
    const chars = paragraphs.reduce((n, p) => n + p.text.length, 0);
    const confidence = chars ? paragraphs.reduce((n, p) => n + p.confidence * p.text.length, 0) / chars : 0;
    return { paragraphs, confidence };
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }
}

/**
 * Runs `read` over `pages` with progress (time left from the mean so far) and cancel:
 * an aborted signal stops before the next page and throws.
 */
export async function ocrPages<T>(pages: number[], fileName: string, options: OcrOptions, read: (page: number) => Promise<T>): Promise<Map<number, T>> {
  const out = new Map<number, T>();
  const t0 = Date.now();
  for (const [i, p] of pages.entries()) {
    if (options.signal?.aborted) throw new LoaderError('OCR cancelled', fileName);
    out.set(p, await read(p));
    const elapsedMs = Date.now() - t0;
    options.onOcrProgress?.({ page: i + 1, pages: pages.length, elapsedMs, remainingMs: Math.round((elapsedMs / (i + 1)) * (pages.length - i - 1)) });
  }
  return out;
}

/** tesseract.js rejects with strings as well as Errors. */
function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** The image formats OCR reads, by their first bytes. */
export function imageType(bytes: Uint8Array): 'png' | 'jpeg' | 'webp' | 'tiff' | null {
  const b = bytes;
  if (b.length < 12) return null;
  if (b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) return 'png';
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg';
  if (b[0] === 0x52 && b[1] === 0x49 && b[2] === 0x46 && b[3] === 0x46 && b[8] === 0x57 && b[9] === 0x45 && b[10] === 0x42 && b[11] === 0x50) return 'webp';
  if ((b[0] === 0x49 && b[1] === 0x49 && b[2] === 0x2a && b[3] === 0) || (b[0] === 0x4d && b[1] === 0x4d && b[2] === 0 && b[3] === 0x2a)) return 'tiff';
  return null;
}
