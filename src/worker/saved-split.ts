/**
 * A document's split (its sentence atoms and naive chunks, as `RetrievalEngine.addSplitDocuments`
 * takes them) packed for IndexedDB: two Int32Arrays per document instead of one object per
 * sentence. Restoring 100k stored sentences from them skips sentence segmentation, token
 * counting and naive chunking, most of a reload's time.
 *
 * A split holds only for what made it: the token counter (tokens, and where long sentences and
 * naive chunks were cut), the longest sentence atom and the naive chunk parameters. `key` names
 * them; a split whose key is not the engine's is not used (the document is split again).
 */
import type { RetrievalEngine } from '../core/engine';
import { ApproxTokenCounter, type TokenCounter } from '../core/segment/tokens';
import type { SplitDocument } from '../core/structure/units';
import type { Document } from '../core/types';

export interface SavedSplit {
  /** splitKey of the engine that made it. */
  key: string;
  /** Per sentence: section, page (-1: none), start, end, tokens, part index (-1: none), part count. */
  sentences: Int32Array;
  /** Per naive chunk: start, end, tokens, first sentence, end sentence (from the document's first). */
  chunks: Int32Array;
}

const S = 7;
const C = 5;
/** Raised when how documents are split changes, so splits stored by an older version are not taken. */
const SPLIT_VERSION = 1;

/**
 * What a document's split depends on, for an engine: its token counter, longest atom and the
 * structure parameters other than those the split does not depend on (headers, BM25, the
 * chunk tree, which is rebuilt from token counts): naive chunks and any chunker added later.
 */
export function splitKey(engine: RetrievalEngine): string {
  const { headers: _h, lexical: _l, chunkLevels: _c, sectionLevel: _s, ...chunking } = engine.structure;
  return JSON.stringify([SPLIT_VERSION, engine.counter.name, engine.corpus.maxSentenceTokens, chunking]);
}

/** The split of the engine's document `d`, packed. */
export function packSplit(engine: RetrievalEngine, d: number): SavedSplit {
  const c = engine.corpus;
  const first = c.docStarts[d]!;
  const end = c.docStarts[d + 1]!;
  const sentences = new Int32Array((end - first) * S);
  for (let i = first; i < end; i++) {
    const s = c.sentences[i]!;
    sentences.set([s.section, s.page ?? -1, s.start, s.end, s.tokens, s.part ? s.part.index : -1, s.part ? s.part.of : 0], (i - first) * S);
  }
  const all = engine.chunks;
  // Naive chunks are appended document by document: the document's are one run, found by bisection.
  let lo = 0;
  let hi = all.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (all[mid]!.doc < d) lo = mid + 1;
    else hi = mid;
  }
  let to = lo;
  while (to < all.length && all[to]!.doc === d) to++;
  const chunks = new Int32Array((to - lo) * C);
  for (let i = lo; i < to; i++) {
    const ch = all[i]!;
    chunks.set([ch.start, ch.end, ch.tokens, ch.sentences.start - first, ch.sentences.end - first], (i - lo) * C);
  }
  return { key: splitKey(engine), sentences, chunks };
}

/** Every document's split, by document id. */
export function packSplits(engine: RetrievalEngine): Map<string, SavedSplit> {
  return new Map(engine.corpus.docs.map((doc, d) => [doc.id, packSplit(engine, d)]));
}

/** The stored split of `doc` as addSplitDocuments takes it; null when it is not a split (a damaged record). */
export function unpackSplit(doc: Document, saved: SavedSplit): SplitDocument | null {
  if (!(saved.sentences instanceof Int32Array) || !(saved.chunks instanceof Int32Array) || saved.sentences.length % S || saved.chunks.length % C) return null;
  const v = saved.sentences;
  const sentences: SplitDocument['sentences'] = [];
  for (let at = 0; at < v.length; at += S) {
    const page = v[at + 1]!;
    const part = v[at + 5]!;
    sentences.push({
      section: v[at]!,
      ...(page >= 0 ? { page } : {}),
      start: v[at + 2]!,
      end: v[at + 3]!,
      tokens: v[at + 4]!,
      ...(part >= 0 ? { part: { index: part, of: v[at + 6]! } } : {}),
    });
  }
  const w = saved.chunks;
  const chunks: SplitDocument['chunks'] = [];
  for (let at = 0; at < w.length; at += C) chunks.push({ start: w[at]!, end: w[at + 1]!, tokens: w[at + 2]!, sentences: { start: w[at + 3]!, end: w[at + 4]! } });
  return { doc, sentences, chunks };
}

/**
 * Adds `docs` to an empty engine: from their stored splits when every one has a split made
 * for this engine (splitKey), and they fit (addSplitDocuments checks them), else by splitting
 * them again. Returns whether the stored splits were used.
 */
export function addStoredDocuments(engine: RetrievalEngine, docs: Document[], splits: ReadonlyMap<string, SavedSplit> | undefined): boolean {
  const key = splitKey(engine);
  const split = splits && docs.length ? docs.map((d) => { const s = splits.get(d.id); return s && s.key === key ? unpackSplit(d, s) : null; }) : [];
  if (split.length && split.every((s) => s !== null)) {
    try {
      engine.addSplitDocuments(split as SplitDocument[]);
      return true;
    } catch {
      // Stored spans that no longer fit their document: split again below (nothing was added).
    }
  }
  engine.addDocuments(docs);
  return false;
}

/**
 * Where stored splits were all made one way by a model's tokenizer (the usual case after a
 * reload, before that model has loaded again): the counter's name and the longest atom they
 * were made with. Null when they were not (no splits, several ways, or no model).
 */
export function storedSplitOrigin(docs: readonly Document[], splits: ReadonlyMap<string, SavedSplit>): { counter: string; maxSentenceTokens: number } | null {
  const key = docs.length ? splits.get(docs[0]!.id)?.key : undefined;
  if (!key || !docs.every((d) => splits.get(d.id)?.key === key)) return null;
  try {
    const [version, counter, maxSentenceTokens] = JSON.parse(key) as [unknown, unknown, unknown];
    if (version !== SPLIT_VERSION || typeof counter !== 'string' || counter === new ApproxTokenCounter().name || typeof maxSentenceTokens !== 'number') return null;
    return { counter, maxSentenceTokens };
  } catch {
    return null;
  }
}

/**
 * The token counter of a corpus restored before its model has loaded: it bears the name of
 * the tokenizer its stored splits were counted with, so the engine takes them as they are
 * (the same units the model's engine will have), and counts new text (questions, headers)
 * approximately until the model loads and its engine replaces this one.
 */
export function provisionalCounter(name: string): TokenCounter {
  const approx = new ApproxTokenCounter();
  return { name, count: (text) => approx.count(text) };
}
