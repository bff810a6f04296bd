/**
 * The data model of the retrieval core. Sentences are the atoms: everything larger
 * (a window, a leaf, a parent chunk, a section) is a range [start, end) over the
 * corpus's sentence array, never a copy of text. Pure data: no DOM, no React.
 */

/** Metadata a loader can tell about a file. Dates are ISO strings. */
export interface DocumentMeta {
  fileName: string;
  size: number;
  format: DocumentFormat;
  created?: string;
  modified?: string;
  pageCount?: number;
  author?: string;
  /** Free-form extra fields (a PDF's Subject, a SQuAD article id, …). */
  extra?: Record<string, string>;
}

export type DocumentFormat = 'txt' | 'md' | 'html' | 'pdf' | 'docx' | 'odt' | 'pptx' | 'odp' | 'xlsx' | 'ods' | 'csv' | 'tsv' | 'epub' | 'image';

/** A heading and the text it governs, as character offsets into Document.text. */
export interface Section {
  /** Index in Document.sections. 0 is the document's root (level 0, whole text). */
  id: number;
  title: string;
  /** 0 for the root, 1 for h1 / '#', … */
  level: number;
  parent: number | null;
  start: number;
  end: number;
}

/** A PDF page as a character range of Document.text. */
export interface Page {
  number: number;
  start: number;
  end: number;
  /** Set when the page's text was read by OCR: Tesseract's mean confidence, 0–100. */
  ocrConfidence?: number;
}

/** A paragraph read by OCR, as a character range of Document.text, with Tesseract's confidence (0–100). */
export interface OcrSpan {
  start: number;
  end: number;
  confidence: number;
}

/** What a loader produces: plain text (newlines are hard boundaries) plus structure. */
export interface Document {
  id: string;
  title: string;
  /** BCP-47 primary tag ('en', 'pt', 'zh', …), given or detected. */
  language: string;
  /** How the language was decided, when not given by the file, the dataset or the caller. */
  languageInfo?: LanguageInfo;
  text: string;
  sections: Section[];
  pages: Page[];
  meta: DocumentMeta;
  tags?: string[];
  /** Non-fatal loader remarks shown to the user (e.g. "page 3 has no text layer"). */
  warnings?: string[];
  /** A title and summary for contextual headers, written by an LLM or the user (dsRAG's AutoContext). */
  context?: DocumentContext;
  /** The paragraphs read by OCR (scanned pages, images), each with its confidence: a sentence's confidence is its span's. */
  ocr?: OcrSpan[];
}

/**
 * A detected language says how sure the detector was (segment/language.ts), so a document whose
 * language is unsure can say so and be changed; a language the user chose says so and is kept.
 */
export interface LanguageInfo {
  source: 'detected' | 'user';
  /** 0–1 (detected only). */
  confidence?: number;
  /** The detector's own verdict: confident enough to act on without asking (detected only). */
  sure?: boolean;
  /** The next candidates, most likely first (detected only). */
  alternatives?: string[];
}

export interface DocumentContext {
  /** Replaces the loader's title in headers. */
  title?: string;
  /** One sentence on what the document is about, added after the title in headers. */
  summary?: string;
  /** Who wrote it: "user", or the generator's name. */
  by: string;
}

/** One atom of the corpus. A sentence longer than the leaf size is split into parts. */
export interface Sentence {
  /** Index of the document in Corpus.docs. */
  doc: number;
  /** Deepest section holding the sentence (index into that document's sections). */
  section: number;
  /** 1-based page number, when the document has pages. */
  page?: number;
  /** Character span in the document's text. */
  start: number;
  end: number;
  text: string;
  /** Token count with the corpus's tokenizer (no special tokens). */
  tokens: number;
  /** Set on the pieces of a sentence that was split because it exceeded the leaf size. */
  part?: { index: number; of: number };
}

/** A range of sentences [start, end) in the corpus. */
export interface SentenceRange {
  start: number;
  end: number;
}

/** One node of the chunk hierarchy (LlamaIndex HierarchicalNodeParser-like). */
export interface ChunkNode extends SentenceRange {
  id: number;
  /** 0 = largest level. */
  level: number;
  parent: number | null;
  children: number[];
  tokens: number;
  doc: number;
}

export interface ChunkHierarchy {
  /** Token sizes per level, largest first, e.g. [2048, 512, 128]. */
  levels: number[];
  nodes: ChunkNode[];
  /** Ids of the nodes of the smallest level, in document order. */
  leaves: number[];
}

/** A fixed-size chunk that ignores sentences and sections: the naive baseline. */
export interface NaiveChunk {
  id: number;
  doc: number;
  /** Character span in the document. */
  start: number;
  end: number;
  text: string;
  tokens: number;
  /** The sentences it overlaps, for highlighting and metadata. */
  sentences: SentenceRange;
}

/** Where a block's score came from, so the UI can say it. */
export interface Provenance {
  /** What was retrieved and then expanded or merged into this block. */
  unit: 'sentence' | 'leaf' | 'chunk' | 'packed' | 'semantic';
  /** 1-based rank per retriever list ('bm25', 'vector'), null when absent from that list. */
  ranks: Record<string, number | null>;
  /** Raw score per retriever list. */
  scores: Record<string, number>;
  /** The analyzer and BM25 variant behind a BM25 rank or score ("BM25+ · words"). */
  lexical?: string;
  /** Weighted RRF score when lists were fused. */
  fused?: number;
  /** Auto-merging: this block replaced `children` retrieved of `of` children. */
  merged?: { children: number; of: number; level: number };
  /** Sentence window: what was asked for and what was handed over. */
  window?: { before: number; after: number; shrunk: boolean };
  /** Cross-encoder score and the rank the unit had before reranking. */
  rerank?: { score: number; before: number };
  /** Several hits whose windows overlapped were merged into this block. */
  hits?: number;
  /** Adaptive window: how far it grew each side and why it stopped. */
  adaptive?: { before: number; after: number; stopped: { before: 'threshold' | 'edge' | 'budget' | 'max'; after: 'threshold' | 'edge' | 'budget' | 'max' }; relevance: 'vector' | 'words' };
  /** Relevant segment extraction: the segment's summed value, its length and retrieved units inside. */
  segment?: { value: number; units: number; retrieved: number };
  /** What else the strategy did to this block, in a few words each ("filled in between two retrieved leaves"). */
  notes?: string[];
}

/** What a strategy hands to the LLM: a range of one document, with provenance. */
export interface ContextBlock {
  /** Stable id, e.g. "window:3:120-127". */
  id: string;
  doc: number;
  /** Sentence range covered (for naive chunks: the sentences it overlaps). */
  sentences: SentenceRange;
  /** Character span in the document text. */
  start: number;
  end: number;
  text: string;
  /** Contextual chunk header, when headers are on. Counted in `tokens`. */
  header?: string;
  /** The unit's situating context (contextual retrieval), handed over before its text. Counted in `tokens`. */
  context?: { text: string; source: string; cut?: boolean; window?: boolean };
  /** Global indices of the retrieved sentences inside this block (highlighting). */
  hits: number[];
  score: number;
  tokens: number;
  provenance: Provenance;
}
