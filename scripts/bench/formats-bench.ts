/**
 * npx tsx scripts/bench/formats-bench.ts [--out FILE] [--quick]
 *
 * Loader speed per document format (Node, the same loaders as the worker and the CLI), on
 * files generated here (office-fixtures.ts): pages, slides or rows per second, and OCR
 * seconds per scanned page (300 dpi, rendered by pdf.js, read by tesseract.js). Prints a
 * table; asserts nothing about time. A "page" of a word-processor file or an e-book is
 * 3,000 characters of its text.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { zlibSync } from 'fflate';
import { renderTable } from '../../src/cli/table';
import { loadDocument } from '../../src/core/documents/load';
import * as F from '../../src/core/documents/office-fixtures';
import { wordErrorRate } from '../../src/core/documents/wer';
import { setupNode } from '../../src/node/setup';
import { textImage } from '../../src/node/text-image';

export interface FormatRow {
  format: string;
  file: string;
  bytes: number;
  /** What one unit is: page (3,000 chars), slide, row, scanned page. */
  unit: string;
  units: number;
  /** Median load time of the runs. */
  ms: number;
  unitsPerS: number;
  /** OCR only: seconds per page, and the word error rate against the rendered text. */
  sPerPage?: number;
  wer?: number;
  confidence?: number;
}

const { values } = parseArgs({ options: { out: { type: 'string' }, quick: { type: 'boolean' } } });
const quick = Boolean(values.quick);
setupNode();

const WORDS = 'harbour council budget library river tram orchard weaver glacier market winter summer report figure school bridge museum station garden festival'.split(' ');
let seed = 11;
const rnd = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
const sentence = (n: number) => Array.from({ length: n }, () => WORDS[Math.floor(rnd() * WORDS.length)]).join(' ') + '.';
const paragraph = () => Array.from({ length: 4 }, () => sentence(12 + Math.floor(rnd() * 10))).join(' ');

async function time(name: string, bytes: Uint8Array, runs: number): Promise<{ ms: number; chars: number; pages: number }> {
  const times: number[] = [];
  let chars = 0;
  let pages = 0;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const d = await loadDocument({ name, bytes });
    times.push(performance.now() - t0);
    chars = d.text.length;
    pages = d.pages.length;
  }
  times.sort((a, b) => a - b);
  return { ms: times[Math.floor(times.length / 2)]!, chars, pages };
}

const n = quick ? 0.2 : 1;
const paras = Array.from({ length: Math.round(2000 * n) }, paragraph);
const sheetRows = Math.round(50_000 * n);
const cityRows = Array.from({ length: sheetRows }, (_, i) => [WORDS[i % WORDS.length]!, `${WORDS[(i * 7) % WORDS.length]} ${i}`, Math.round(rnd() * 1e6), `C-${i}`]);
const files: { format: string; name: string; bytes: Uint8Array; unit: 'page' | 'slide' | 'row' }[] = [
  { format: 'docx', name: 'report.docx', bytes: F.docx(paras.map((p, i) => (i % 25 === 0 ? { h: 1 as const, text: sentence(4) } : i % 50 === 7 ? { table: [['Region', 'Value'], ['North', '12'], ['South', '9']] } : { p }))), unit: 'page' },
  { format: 'odt', name: 'report.odt', bytes: F.odt(paras.map((p, i) => (i % 25 === 0 ? { h: 1, text: sentence(4) } : { p }))), unit: 'page' },
  { format: 'epub', name: 'book.epub', bytes: F.epub(Array.from({ length: 40 }, (_, c) => ({ title: `Chapter ${c + 1}`, html: paras.slice(c * paras.length / 40, (c + 1) * paras.length / 40).map((p) => `<p>${p}</p>`).join('') })), { title: 'Book' }), unit: 'page' },
  { format: 'pptx', name: 'deck.pptx', bytes: F.pptx(Array.from({ length: Math.round(300 * n) }, () => ({ title: sentence(4), body: [sentence(8), sentence(8), sentence(8)], notes: sentence(20) }))), unit: 'slide' },
  { format: 'odp', name: 'deck.odp', bytes: F.odp(Array.from({ length: Math.round(300 * n) }, () => ({ title: sentence(4), body: [sentence(8), sentence(8), sentence(8)], notes: sentence(20) }))), unit: 'slide' },
  { format: 'xlsx', name: 'sheet.xlsx', bytes: F.xlsx([{ name: 'Data', rows: [['Name', 'Place', 'Amount', 'Code'], ...cityRows] }]), unit: 'row' },
  { format: 'ods', name: 'sheet.ods', bytes: F.ods([{ name: 'Data', rows: [['Name', 'Place', 'Amount', 'Code'], ...cityRows.map((r) => r.map(String))] }]), unit: 'row' },
  { format: 'csv', name: 'sheet.csv', bytes: new TextEncoder().encode(['Name,Place,Amount,Code', ...cityRows.map((r) => r.join(','))].join('\n')), unit: 'row' },
];

const rows: FormatRow[] = [];
for (const f of files) {
  process.stderr.write(`formats: ${f.format}…\n`);
  const r = await time(f.name, f.bytes, 3);
  const units = f.unit === 'page' ? r.chars / 3000 : f.unit === 'slide' ? r.pages : sheetRows;
  rows.push({ format: f.format, file: f.name, bytes: f.bytes.length, unit: f.unit === 'page' ? 'page (3,000 chars)' : f.unit, units: Math.round(units), ms: r.ms, unitsPerS: units / (r.ms / 1000) });
}

// OCR: full A4 pages of text at 300 dpi, each only an image in the PDF.
const pageCount = quick ? 1 : 3;
const lines = Array.from({ length: 40 }, () => sentence(9));
const scan = textImage(lines, { dpi: 300, widthInches: 7.5 });
process.stderr.write(`formats: OCR of ${pageCount} scanned page(s), ${scan.width}×${scan.height} px…\n`);
const pdf = F.imagePdf(Array.from({ length: pageCount }, () => ({ gray: scan.gray, width: scan.width, height: scan.height, dpi: 300 })), (d) => zlibSync(d));
const t0 = performance.now();
const scanned = await loadDocument({ name: 'scan.pdf', bytes: pdf });
const ocrMs = performance.now() - t0;
const firstPage = scanned.pages[0]!;
rows.push({
  format: 'pdf (scanned, OCR)',
  file: 'scan.pdf',
  bytes: pdf.length,
  unit: 'scanned page',
  units: pageCount,
  ms: ocrMs,
  unitsPerS: pageCount / (ocrMs / 1000),
  sPerPage: ocrMs / 1000 / pageCount,
  wer: wordErrorRate(lines.join(' '), scanned.text.slice(firstPage.start, firstPage.end)),
  confidence: firstPage.ocrConfidence ?? 0,
});

const fmt = (x: number | undefined, d = 1) => (x === undefined || !Number.isFinite(x) ? '–' : x.toFixed(d));
console.log('9. Document formats (Node; files generated by office-fixtures.ts; median of 3 loads; OCR: one run, tesseract.js start included)');
console.log(
  renderTable(
    ['format', 'file KB', 'units', 'unit', 'load ms', 'units / s', 'OCR s / page', 'OCR WER', 'OCR confidence'],
    rows.map((r) => [r.format, fmt(r.bytes / 1024, 0), r.units, r.unit, fmt(r.ms, 0), fmt(r.unitsPerS, r.unitsPerS < 1 ? 3 : 1), fmt(r.sPerPage, 1), fmt(r.wer, 3), fmt(r.confidence, 0)]),
  ),
);
if (values.out) writeFileSync(values.out, JSON.stringify(rows, null, 2));
