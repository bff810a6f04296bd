/**
 * OCR in Node (CLI, tests, benches): tesseract.js's Node worker with the language data of
 * the installed @tesseract.js-data/<code> packages, read from disk — nothing fetched.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { OCR_LANGUAGES, type OcrEnvironment } from '../core/documents/ocr';

const require = createRequire(import.meta.url);

function dataFile(code: string): string | null {
  try {
    const file = join(dirname(require.resolve(`@tesseract.js-data/${code}/package.json`)), '4.0.0', `${code}.traineddata.gz`);
    return existsSync(file) ? file : null;
  } catch {
    return null;
  }
}

export function nodeOcrEnvironment(): OcrEnvironment {
  const installed = Object.values(OCR_LANGUAGES)
    .map((l) => l.code)
    .filter((c) => dataFile(c) !== null);
  return {
    installed,
    langPath(code) {
      const file = dataFile(code);
      return file ? dirname(file) : null;
    },
  };
}
