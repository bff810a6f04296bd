/**
 * How much memory a corpus takes in the engine, estimated from counts alone — before anything
 * is read into an engine — and whether a load fits what the tab can hold. The page refuses a
 * bundle (from its manifest) or dropped documents (from their file sizes) that would not fit,
 * instead of letting the tab run out of memory and lose what was already indexed.
 *
 * The per-part costs are those `npm run bench` measured (node-bench `memory100k.parts`, README
 * "Measuring", row "memory at 100k": 128,485 SQuAD sentences with vectors of the four kinds a
 * bundle carries, `auto` vector index, 2,424 bytes/sentence = corpus 613 (of which document
 * text 312) + vectors 764 sentence + 252 leaf + 195 chunk + 243 packed + BM25 78 + 55 + 52 + 58
 * + first search 115). The same costs give the bench's 1M figure (2,389) within a few per
 * cent: an estimate, not a measurement.
 */
import { COMPACT_FROM } from '../index/bit-scan-index';
import type { RetrievalEngine } from '../engine';
import type { VectorBackend } from '../index/backends';
import { UNIT_KINDS, type UnitKind } from '../retrieve/params';

/** Bytes per sentence of what every corpus holds, whatever its vectors (bench, 100k). */
export const MEASURED = {
  /** Sentences, sections, chunk tree, naive chunks: the corpus part (613) less its text (312). */
  corpusPerSentence: 301,
  /** Document text: UTF-16 in the engine. */
  bytesPerTextChar: 2,
  /** A bundle's text is not counted in its manifest: SQuAD's 312 bytes of text per sentence (156 characters). */
  textCharsPerSentence: 156,
  /** What the first search builds besides the vectors' bit codes (115 − 99 of codes): lazily built units, search scratch. */
  searchPerSentence: 16,
  /** BM25 (typed-array postings, one term dictionary shared by the kinds) per sentence, by the unit kind it indexes. */
  bm25PerSentence: { sentence: 78, leaf: 55, chunk: 52, packed: 58, semantic: 0 } satisfies Record<UnitKind, number>,
} as const;

/**
 * Units per sentence where a corpus is not yet split (dropped documents): leaves and naive
 * chunks from the same bench (252 and 195 bytes of float16 rows per sentence ÷ 768 per row);
 * sentence-packed chunks as measured on the sample PDFs (0.29 a sentence).
 */
export const UNITS_PER_SENTENCE: Record<Exclude<UnitKind, 'semantic'>, number> = { sentence: 1, leaf: 0.328, chunk: 0.254, packed: 0.29 };

/**
 * Characters of text per byte of a file, and characters per sentence, for dropped documents.
 * PDF: the most text-dense PDFs measured (a software manual 0.27, a specification 0.24; NIST
 * AI 100-1 0.054, a scanned handbook 0.005), so a PDF's estimate is an upper bound. HTML:
 * assumed half markup. Text and Markdown: UTF-8, at most a character a byte. Sentences: 100
 * characters each (sample PDFs 89–135, SQuAD 157, Markdown lists ~40).
 *
 * Zipped formats hold more text than their bytes (deflate packs text ~3:1), and a sheet's
 * text is larger than its data because every row repeats its headers. Measured on generated
 * files (office-fixtures.ts, 20,000 rows of 5 columns / 3,000 paragraphs): xlsx 2.5, ods
 * 4.6, csv 2.1 characters a byte, 88 characters a row; pptx 0.24. The figures below are
 * upper bounds above those: word processors and e-books 3 (deflated text; their XML makes real
 * files less dense), sheets 5, CSV/TSV 2.5, slides 1, images 0.05 (a 300-dpi page PNG of
 * ~100 KB or more holds ~3,000 characters).
 */
export const TEXT_PER_FILE_BYTE = { pdf: 0.27, html: 0.5, text: 1, document: 3, sheet: 5, delimited: 2.5, slides: 1, image: 0.05 } as const;
export const CHARS_PER_SENTENCE = 100;
/** A sheet's or CSV's sentence is a row: 88 characters measured, 80 taken (more sentences: the safer side). */
export const CHARS_PER_ROW = 80;

const FORMAT_DENSITY: Record<string, keyof typeof TEXT_PER_FILE_BYTE> = {
  pdf: 'pdf', html: 'html', htm: 'html', xhtml: 'html',
  docx: 'document', odt: 'document', epub: 'document',
  xlsx: 'sheet', ods: 'sheet', csv: 'delimited', tsv: 'delimited', tab: 'delimited',
  pptx: 'slides', odp: 'slides',
  png: 'image', jpg: 'image', jpeg: 'image', webp: 'image', tif: 'image', tiff: 'image',
};

/** voy-search's k-d tree beside the float32 rows: (1,137 − 147) MB at 100k vectors (README "index backends at 100k"). */
const VOY_BYTES_PER_VECTOR = 9_900;

/** What a corpus holds, counted: enough to estimate its memory without building it. */
export interface CorpusCounts {
  sentences: number;
  /** UTF-16 code units of document text. */
  textChars: number;
  /** Units with vectors, by kind (kinds without vectors left out or 0). */
  vectors: Partial<Record<UnitKind, number>>;
  /** Dimensions of the vectors (0 when there are none). */
  dims: number;
}

/** Bytes of one kind's vectors in the index `backend` keeps them in (per kind: each index decides its row format alone). */
export function vectorBytes(count: number, dims: number, backend: VectorBackend = 'auto'): number {
  if (count <= 0 || dims <= 0) return 0;
  const float32 = count * dims * 4;
  if (backend === 'flat') return float32;
  if (backend === 'voy') return float32 + count * VOY_BYTES_PER_VECTOR;
  if (count < COMPACT_FROM) return float32;
  // Float16 rows, plus the bit scan's codes (1 bit a dimension from 256 dimensions, 2 below) and a scale per row (bit-scan-index.ts).
  const codeBytes = Math.ceil((dims * (dims >= 256 ? 1 : 2)) / 8);
  return count * (dims * 2 + codeBytes + 4);
}

export interface EngineEstimate {
  bytes: number;
  parts: { corpus: number; text: number; vectors: number; bm25: number; search: number };
}

/** The engine's memory for a corpus of these counts (the model above); BM25 counted for every kind a column searches. */
export function engineBytes(c: CorpusCounts, backend: VectorBackend = 'auto'): EngineEstimate {
  const s = c.sentences;
  const bm25PerSentence = MEASURED.bm25PerSentence.sentence + MEASURED.bm25PerSentence.leaf + MEASURED.bm25PerSentence.chunk + MEASURED.bm25PerSentence.packed;
  const parts = {
    corpus: Math.round(s * MEASURED.corpusPerSentence),
    text: Math.round(c.textChars * MEASURED.bytesPerTextChar),
    vectors: (Object.entries(c.vectors) as [UnitKind, number][]).reduce((n, [, count]) => n + vectorBytes(count, c.dims, backend), 0),
    bm25: Math.round(s * bm25PerSentence),
    search: Math.round(s * MEASURED.searchPerSentence),
  };
  return { bytes: parts.corpus + parts.text + parts.vectors + parts.bm25 + parts.search, parts };
}

/**
 * What an engine holds, counted (its current chunk-size and header variant). With a model
 * loaded every unit counts as embedded: the embedding job goes on until they all are.
 */
export function engineCounts(engine: RetrievalEngine): CorpusCounts {
  const vectors: Partial<Record<UnitKind, number>> = {};
  for (const k of UNIT_KINDS) {
    const { done, total } = engine.vectorCoverage(k);
    const n = engine.embedder ? Math.max(done, total) : done;
    if (n > 0) vectors[k] = n;
  }
  return { sentences: engine.corpus.sentences.length, textChars: engine.corpus.docs.reduce((n, d) => n + d.text.length, 0), vectors, dims: engine.embedder?.dim ?? 0 };
}

/** The vectors two corpora hold together: counts add up per kind (an index is sized by its total). */
export function addCounts(a: CorpusCounts, b: CorpusCounts): CorpusCounts {
  const vectors: Partial<Record<UnitKind, number>> = { ...a.vectors };
  for (const [k, n] of Object.entries(b.vectors) as [UnitKind, number][]) vectors[k] = (vectors[k] ?? 0) + n;
  return { sentences: a.sentences + b.sentences, textChars: a.textChars + b.textChars, vectors, dims: Math.max(a.dims, b.dims) };
}

/** What a load needs: the corpus's counts, and what it holds only while it loads (file bytes, copies). */
export interface LoadNeed {
  counts: CorpusCounts;
  /** Bytes held only while loading: the bundle's tables, a dropped file's bytes. */
  transientBytes: number;
}

/** The manifest fields the estimate reads (a bundle's manifest.json, checked by parseManifest). */
export interface ManifestCounts {
  corpus: { sentences: number; leaves: number; chunks: number };
  embedding: { dims: number } | null;
  vectors: { kinds: readonly UnitKind[] };
  tables: Record<string, { rows: number } | undefined>;
  files: readonly { name: string; bytes: number }[];
}

/** The Parquet tables an import reads (import.ts); their bytes are held while it builds the engine. */
const IMPORT_TABLES = ['documents', 'sections', 'pages', 'sentences', 'units', 'vectors', 'postings'];

/**
 * A bundle's need from its manifest alone: sentences, units with vectors per kind (packed
 * chunks have no rows of their own in the units table: what the vectors table holds beyond the
 * other kinds), and the bytes of the tables the import reads.
 */
export function bundleNeed(m: ManifestCounts): LoadNeed {
  const kinds: readonly UnitKind[] = Array.isArray(m.vectors.kinds) ? m.vectors.kinds : [];
  const dims = m.embedding && kinds.length ? count(m.embedding.dims) : 0;
  const known: Partial<Record<UnitKind, number>> = { sentence: count(m.corpus.sentences), leaf: count(m.corpus.leaves), chunk: count(m.corpus.chunks) };
  const vectors: Partial<Record<UnitKind, number>> = {};
  let counted = 0;
  for (const k of kinds) if (known[k] !== undefined) counted += vectors[k] = known[k]!;
  const rest = kinds.filter((k) => known[k] === undefined);
  // Kinds without a count in the manifest (packed) share the vector rows the others do not take.
  for (const k of rest) vectors[k] = Math.floor(Math.max(0, count(m.tables.vectors?.rows) - counted) / rest.length);
  const transientBytes = m.files.filter((f) => IMPORT_TABLES.some((t) => f.name === `parquet/${t}.parquet`)).reduce((n, f) => n + count(f.bytes), 0);
  const sentences = known.sentence!;
  // The manifest does not count characters: SQuAD's per sentence.
  return { counts: { sentences, textChars: Math.round(sentences * MEASURED.textCharsPerSentence), vectors: dims ? vectors : {}, dims }, transientBytes };
}

/** A count from a manifest: a finite number ≥ 0, else 0 (parseManifest checks shapes, not every number). */
const count = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0);

/** A dropped document's need from its name and size: text per byte of its format, sentences of 100 characters; vectors of every kind the model embeds. */
export function documentNeed(file: { name: string; size: number }, dims: number): LoadNeed {
  const ext = file.name.toLowerCase().split('.').pop() ?? '';
  const density = FORMAT_DENSITY[ext] ?? 'text';
  const textChars = Math.round(file.size * TEXT_PER_FILE_BYTE[density]);
  const sentences = Math.ceil(textChars / (density === 'sheet' || density === 'delimited' ? CHARS_PER_ROW : CHARS_PER_SENTENCE));
  const vectors: Partial<Record<UnitKind, number>> = {};
  if (dims > 0) for (const [k, per] of Object.entries(UNITS_PER_SENTENCE) as [UnitKind, number][]) vectors[k] = Math.round(sentences * per);
  return { counts: { sentences, textChars, vectors, dims }, transientBytes: file.size };
}

/** What the browser says about its memory (the page reads it; the worker decides). */
export interface TabMemory {
  /** navigator.deviceMemory: GiB, rounded to a power of two and clamped by the browser (Chromium: at most 8 in most versions). */
  deviceMemoryGiB?: number | null;
  /** performance.memory.jsHeapSizeLimit (Chromium): the cap of one JavaScript heap. */
  jsHeapSizeLimit?: number | null;
  /** A budget set on purpose (the page's #budget= debug hash, for tests): bytes. */
  overrideBytes?: number | null;
}

export interface Budget {
  /** Bytes the engine and a load may take in this tab. */
  bytes: number;
  /** The JavaScript heap's cap, when the browser says: text and objects must fit it too (typed arrays live outside it). */
  heapBytes: number | null;
  basis: 'override' | 'device-memory' | 'default';
  deviceMemoryGiB?: number;
}

/** When the browser says nothing (Firefox, Safari): 4 GB, what a 64-bit tab can usually take. */
export const DEFAULT_BUDGET_BYTES = 4e9;
/** Of the device's memory, what one tab may take (the system and the browser need the rest). */
export const DEVICE_SHARE = 0.75;

/**
 * The tab's budget. The engine's bulk (vectors, BM25 postings, sentence spans) is typed
 * arrays, whose backing stores live outside the JavaScript heap: the device's memory bounds
 * them, not jsHeapSizeLimit (Chromium ~4 GB). So the budget is 3/4 of navigator.deviceMemory;
 * the heap cap applies to the text and objects alone (`heapBytes`). Without either: 4 GB.
 */
export function tabBudget(m: TabMemory): Budget {
  const heapBytes = m.jsHeapSizeLimit && m.jsHeapSizeLimit > 0 ? m.jsHeapSizeLimit : null;
  if (m.overrideBytes && m.overrideBytes > 0) return { bytes: m.overrideBytes, heapBytes: null, basis: 'override' };
  if (m.deviceMemoryGiB && m.deviceMemoryGiB > 0) return { bytes: Math.round(m.deviceMemoryGiB * 2 ** 30 * DEVICE_SHARE), heapBytes, basis: 'device-memory', deviceMemoryGiB: m.deviceMemoryGiB };
  return { bytes: DEFAULT_BUDGET_BYTES, heapBytes, basis: 'default' };
}

/** The part of an estimate in the JavaScript heap: text and per-sentence objects. */
const heapPart = (e: EngineEstimate) => e.parts.text + e.parts.corpus;

export interface LoadCheck {
  fits: boolean;
  /** Which limit a refused load exceeds. */
  limit?: 'budget' | 'heap';
  /** Bytes the load needs at its peak beyond what the tab holds now; once loaded. */
  needBytes: number;
  loadedBytes: number;
  /** What the tab holds now (the engine's estimate), and can hold. */
  heldBytes: number;
  budget: Budget;
  /** The heap part of held + loaded, and its cap (for a 'heap' refusal). */
  heapNeedBytes: number;
}

/**
 * Whether loading `need` beside what is held fits the budget. `copiesHeld`: the load builds a
 * new engine holding a copy of the current one before it replaces it (an import into an open
 * corpus), so the current engine counts twice at the peak.
 */
export function checkLoad(held: CorpusCounts, need: LoadNeed, budget: Budget, options: { copiesHeld?: boolean; backend?: VectorBackend } = {}): LoadCheck {
  const backend = options.backend ?? 'auto';
  const heldE = engineBytes(held, backend);
  const together = engineBytes(addCounts(held, need.counts), backend);
  const loadedBytes = Math.max(0, together.bytes - heldE.bytes);
  const needBytes = loadedBytes + need.transientBytes + (options.copiesHeld ? heldE.bytes : 0);
  const heapNeedBytes = heapPart(together);
  const base = { needBytes, loadedBytes, heldBytes: heldE.bytes, budget, heapNeedBytes };
  if (heldE.bytes + needBytes > budget.bytes) return { fits: false, limit: 'budget', ...base };
  if (budget.heapBytes !== null && heapNeedBytes > budget.heapBytes) return { fits: false, limit: 'heap', ...base };
  return { fits: true, ...base };
}
