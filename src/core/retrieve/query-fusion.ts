/**
 * Query fusion (LlamaIndex QueryFusionRetriever, mode "reciprocal_rerank"; RAG-Fusion):
 * an LLM writes variants of the question, each query (the question first) is retrieved
 * for, and the ranked lists are fused with reciprocal rank fusion. The LLM call itself
 * lives with the generator; this module is the pure part: the prompt, reading the
 * reply, and the fusion.
 */
import type { ChatMessage } from '../generate/openai';
import type { Candidate } from './candidates';
import { reciprocalRankFusion } from './rrf';

/**
 * LlamaIndex's QUERY_GEN_PROMPT, verbatim (llama-index-core,
 * llama_index/core/retrievers/fusion_retriever.py). LlamaIndex fills {num_queries} with
 * num_queries − 1, because its num_queries counts the original question; here `n` is
 * the number of variants wanted, so it is filled with n itself.
 */
export const QUERY_GEN_PROMPT =
  'You are a helpful assistant that generates multiple search queries based on a ' +
  'single input query. Generate {num_queries} search queries, one on each line, ' +
  'related to the following input query:\n' +
  'Query: {query}\n' +
  'Queries:\n';

/**
 * The chat messages that ask for `n` variants of `query`. The user message is
 * LlamaIndex's prompt unchanged; a system message adds what it leaves implicit: the
 * question's language (a Portuguese question searched with English variants finds
 * nothing by BM25) and bare lines (parseQueryVariants copes with numbering anyway).
 */
export function queryGenerationPrompt(query: string, n: number): ChatMessage[] {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`the number of query variants must be a whole number ≥ 1, got ${n}`);
  const q = query.trim();
  if (!q) throw new Error('query fusion needs a question');
  return [
    {
      role: 'system',
      content:
        'Write every search query in the same language as the input query. ' +
        'Reply with the queries only, one per line, without numbering, quotes or any other text.',
    },
    // A function replacer: a "$&" or "$1" in the question must stay literal.
    { role: 'user', content: QUERY_GEN_PROMPT.replace('{num_queries}', () => String(n)).replace('{query}', () => q) },
  ];
}

/**
 * Case-, width- and space-insensitive identity of a query, ignoring end punctuation:
 * "What is RRF?" and "what  is rrf" are one query.
 */
export function queryKey(q: string): string {
  return q
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[\s?.!。？！;；,，]+$/u, '');
}

/** [question, ...variants] with repeats (queryKey) and empty ones dropped, question kept first. */
export function uniqueQueries(queries: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const q of queries) {
    const t = q.trim();
    const key = queryKey(t);
    if (!key || seen.has(key)) continue;
    seen.add(key);
    out.push(t);
  }
  return out;
}

// List markers: "1.", "1)", "(1)", "-", "*", "•", "+", and labels "Query 2:", "Q2:", "Variant 2 -".
const MARKER = /^(?:[-*•+–]\s+|\(?\d{1,2}[.)](?!\d)\s*|(?:query|queries|variant|question|q)\s*\d{0,2}\s*[:：.)-]\s+)/iu;
// A chatty first line without a colon ("Sure! Here are three queries.").
const PREAMBLE = /^(?:sure|certainly|of course|okay|ok|here (?:are|is)|here's)\b/i;
// Paired wrappers a model puts around a line: quotes, backticks, Markdown bold/italics.
const WRAPPERS: [string, string][] = [
  ['**', '**'],
  ['__', '__'],
  ['"', '"'],
  ["'", "'"],
  ['`', '`'],
  ['“', '”'],
  ['‘', '’'],
  ['«', '»'],
  ['「', '」'],
  ['『', '』'],
  ['*', '*'],
  ['_', '_'],
];

function cleanLine(line: string): string {
  let s = line.trim();
  for (let changed = true; changed && s; ) {
    changed = false;
    const m = MARKER.exec(s);
    if (m && m[0].length < s.length) {
      s = s.slice(m[0].length).trim();
      changed = true;
    }
    for (const [open, close] of WRAPPERS) {
      if (s.length > open.length + close.length && s.startsWith(open) && s.endsWith(close)) {
        s = s.slice(open.length, s.length - close.length).trim();
        changed = true;
      }
    }
  }
  return s;
}

/**
 * Reads the LLM's reply into at most `n` variants. Where LlamaIndex splits on "\d+\."
 * anywhere (which also cuts "version 2.5" in two), this strips one list marker per line
 * ("1.", "1)", "- ", "* ", "Query 2:"), wrapping quotes and bold, skips blank lines,
 * code fences and preamble lines ending in a colon ("Here are 3 queries:"), and drops
 * repeats and the question itself (queryKey). Order is the reply's.
 */
export function parseQueryVariants(text: string, query: string, n: number): string[] {
  if (!(n > 0)) return [];
  const seen = new Set<string>([queryKey(query)]);
  const out: string[] = [];
  for (const raw of text.split(/\r\n|\r|\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('```')) continue;
    if (/[:：]$/u.test(line)) continue; // "Here are 3 search queries:", "Queries:"
    if (PREAMBLE.test(line)) continue;
    const q = cleanLine(line);
    const key = queryKey(q);
    if (!key || seen.has(key)) continue;
    seen.add(key);
    out.push(q);
    if (out.length >= n) break;
  }
  return out;
}

/** A unit after query fusion: the best-ranked underlying candidate, scored by RRF. */
export interface FusedCandidate extends Candidate {
  /** The fused RRF score (also in `score`, which windows and merging read). */
  queryFusion: number;
  /** 1-based rank of the unit in each query's list, null where that query missed it; index 0 = the question. */
  variants: (number | null)[];
}

/**
 * Reciprocal rank fusion of one candidate list per query (the question first):
 * score(d) = Σ_q 1 / (k + rank_q(d)), unweighted as in LlamaIndex, k = 60.
 *
 * Rank convention: LlamaIndex's _reciprocal_rerank_fusion enumerates ranks from 0,
 * i.e. 1/(k + rank0); this uses the project's rrf.ts convention (rank from 1, as in
 * Cormack et al. and LangChain), so a unit first for one query scores 1/61. Pass
 * rankFrom 0 for LlamaIndex's numbers. Lists are taken in the order given (best first);
 * units are identified by candidate id (LlamaIndex uses node text). Ties keep
 * first-seen order: the question's list first, then each variant's, then by rank.
 * Each fused unit keeps the fields (ranks, scores, rerank) of its best-ranked
 * appearance, the earlier query winning a tie, with `score` replaced by the fused score.
 */
export function fuseRankings(lists: readonly { query: string; candidates: readonly Candidate[] }[], k = 60, rankFrom: 0 | 1 = 1): FusedCandidate[] {
  if (rankFrom === 0 && k === 0) throw new Error('RRF with ranks from 0 needs k > 0 (the first unit would score 1/0)');
  const fused = reciprocalRankFusion(
    lists.map((l, i) => ({ name: String(i), items: l.candidates.map((c) => ({ id: c.id, score: c.score })), weight: 1 })),
    { c: k, rankFrom },
  );
  // The best-ranked appearance of each unit: scanning ranks outward, earlier lists first.
  const best = new Map<number, Candidate>();
  const depth = Math.max(0, ...lists.map((l) => l.candidates.length));
  for (let r = 0; r < depth; r++) {
    for (const l of lists) {
      const c = l.candidates[r];
      if (c && !best.has(c.id)) best.set(c.id, c);
    }
  }
  return fused.map((f) => {
    const c = best.get(f.id)!;
    return {
      ...c,
      ranks: { ...c.ranks },
      scores: { ...c.scores },
      score: f.score,
      queryFusion: f.score,
      variants: lists.map((_, i) => f.ranks[String(i)] ?? null),
    };
  });
}

/** How the column names query i of [question, ...variants]. */
export function queryLabel(i: number): string {
  return i === 0 ? 'question' : `variant ${i}`;
}
