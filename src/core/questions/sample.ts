/**
 * Seeded passage sampling for question generation. A passage is a run of whole sentences of
 * one section, up to a token size. Items are drawn round-robin over documents (so a small
 * document is not starved by a large one), and within a document round-robin over its
 * sections; a multi-passage item is two non-adjacent passages of one document. The same
 * corpus, options and seed give the same items (mulberry32, the project's seeded RNG).
 */
import type { Corpus } from '../structure/corpus';
import { mulberry32 } from '../util/random';
import type { GoldSpan, QuestionType } from './types';

/** Default largest passage, in the corpus's tokens. */
export const DEFAULT_PASSAGE_TOKENS = 200;
/** Default smallest passage worth a question (a heading alone is not). */
export const DEFAULT_MIN_PASSAGE_TOKENS = 12;

export interface Passage {
  /** Index of the document in Corpus.docs, and its id. */
  doc: number;
  docId: string;
  /** Section index in that document. */
  section: number;
  /** Sentence range [start, end) in the corpus. */
  sentences: { start: number; end: number };
  /** Character span in the document's text. */
  start: number;
  end: number;
  text: string;
  tokens: number;
}

export interface PassageItem {
  /** 0-based position in the plan (stable ids: the same seed gives the same items). */
  index: number;
  type: QuestionType;
  /** One passage, or two of one document for multi-passage. */
  passages: Passage[];
}

export interface SampleOptions {
  /** How many items. */
  n: number;
  seed: number;
  /** Kinds asked for, assigned to items in turn (default: specific). */
  types?: QuestionType[];
  /** Only these documents (ids); all when absent or empty. */
  documents?: string[];
  maxTokens?: number;
  minTokens?: number;
}

export interface SampleResult {
  items: PassageItem[];
  /** Why fewer items than asked came back, one line each. */
  notes: string[];
}

/** Every passage of one document: whole sentences, one section, up to maxTokens (a longer sentence alone). */
export function documentPassages(corpus: Corpus, doc: number, maxTokens = DEFAULT_PASSAGE_TOKENS, minTokens = DEFAULT_MIN_PASSAGE_TOKENS): Passage[] {
  const d = corpus.docs[doc]!;
  const out: Passage[] = [];
  const first = corpus.docStarts[doc]!;
  const last = corpus.docStarts[doc + 1]!;
  let i = first;
  while (i < last) {
    const section = corpus.sentences[i]!.section;
    let j = i;
    let tokens = 0;
    while (j < last && corpus.sentences[j]!.section === section && (j === i || tokens + corpus.sentences[j]!.tokens <= maxTokens)) {
      tokens += corpus.sentences[j]!.tokens;
      j++;
    }
    if (tokens >= minTokens) {
      const start = corpus.sentences[i]!.start;
      const end = corpus.sentences[j - 1]!.end;
      out.push({ doc, docId: d.id, section, sentences: { start: i, end: j }, start, end, text: d.text.slice(start, end), tokens });
    }
    i = j;
  }
  return out;
}

function shuffle<T>(items: T[], rand: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

/** One document's passages grouped by section, sections and passages in seeded order. */
interface DocPool {
  doc: number;
  sections: Passage[][];
  next: number;
  size: number;
}

function takeFrom(pool: DocPool): Passage | null {
  for (let tries = 0; tries < pool.sections.length; tries++) {
    const sec = pool.sections[pool.next % pool.sections.length]!;
    pool.next++;
    const p = sec.pop();
    if (p) {
      pool.size--;
      return p;
    }
  }
  return null;
}

/** A passage of `pool` not adjacent to (nor overlapping) `a`, taken out of the pool; null when none. */
function takeNonAdjacent(pool: DocPool, a: Passage, rand: () => number): Passage | null {
  const ok = (p: Passage) => p.sentences.start > a.sentences.end || p.sentences.end < a.sentences.start;
  const candidates = pool.sections.flatMap((s, si) => s.map((p, pi) => ({ p, si, pi }))).filter((c) => ok(c.p));
  if (!candidates.length) return null;
  const c = candidates[Math.floor(rand() * candidates.length)]!;
  pool.sections[c.si]!.splice(c.pi, 1);
  pool.size--;
  return c.p;
}

/** Passage items for `n` questions, sampled with `seed` (see the module comment). */
export function samplePassages(corpus: Corpus, options: SampleOptions): SampleResult {
  const rand = mulberry32(options.seed);
  const notes: string[] = [];
  const wanted = options.documents?.length ? new Set(options.documents) : null;
  if (wanted) {
    const known = new Set(corpus.docs.map((d) => d.id));
    for (const id of wanted) if (!known.has(id)) notes.push(`no document "${id}" in the corpus`);
  }
  const pools: DocPool[] = [];
  corpus.docs.forEach((d, doc) => {
    if (wanted && !wanted.has(d.id)) return;
    const bySection = new Map<number, Passage[]>();
    for (const p of documentPassages(corpus, doc, options.maxTokens, options.minTokens)) {
      if (!bySection.has(p.section)) bySection.set(p.section, []);
      bySection.get(p.section)!.push(p);
    }
    // Each section's list is popped from its end: shuffled, so the order is the seed's.
    const sections = shuffle([...bySection.values()].map((s) => shuffle(s, rand)), rand);
    const size = sections.reduce((n, s) => n + s.length, 0);
    if (size) pools.push({ doc, sections, next: 0, size });
  });
  shuffle(pools, rand);
  let types = options.types?.length ? [...new Set(options.types)] : (['specific'] as QuestionType[]);
  const items: PassageItem[] = [];
  let cursor = 0;
  while (items.length < options.n && pools.some((p) => p.size > 0)) {
    const type = types[items.length % types.length]!;
    let item: Passage[] | null = null;
    // Round-robin over documents: the next one that can give this kind of item.
    for (let tries = 0; tries < pools.length && !item; tries++) {
      const pool = pools[cursor % pools.length]!;
      cursor++;
      if (pool.size === 0 || (type === 'multi-passage' && pool.size < 2)) continue;
      const a = takeFrom(pool);
      if (!a) continue;
      if (type !== 'multi-passage') item = [a];
      else {
        const b = takeNonAdjacent(pool, a, rand);
        if (b) item = a.start < b.start ? [a, b] : [b, a];
        else {
          // Put `a` back: it can still serve a single-passage item.
          pool.sections[0]!.push(a);
          pool.size++;
        }
      }
    }
    if (item) {
      items.push({ index: items.length, type, passages: item });
      continue;
    }
    if (type === 'multi-passage') {
      notes.push('no document has two non-adjacent passages left: multi-passage questions stop there');
      types = types.filter((t) => t !== 'multi-passage');
      if (!types.length) break;
      continue;
    }
    break;
  }
  if (items.length < options.n) notes.push(`${items.length} passage items of ${options.n} asked: the chosen documents have no more passages of at least ${options.minTokens ?? DEFAULT_MIN_PASSAGE_TOKENS} tokens`);
  return { items, notes };
}

/** A passage as a gold span (what a generated question's source records). */
export function passageSpan(p: Passage): GoldSpan {
  return { doc: p.docId, start: p.start, end: p.end, text: p.text };
}
