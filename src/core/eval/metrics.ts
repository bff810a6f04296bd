import type { ContextBlock } from '../types';
import type { EvalQuestion, Target } from './dataset';

/** Metrics of one question (or their mean over a set). */
export interface Metrics {
  hitAt1: number;
  hitAt5: number;
  answerInContext: number;
  recallAt5: number;
  mrr: number;
  ndcg10: number;
  meanContextTokens: number;
}

export const METRIC_NAMES: (keyof Metrics)[] = ['hitAt1', 'hitAt5', 'answerInContext', 'recallAt5', 'mrr', 'ndcg10', 'meanContextTokens'];

/** A block as the judge sees it: its document id and its character span. */
export interface JudgedBlock {
  doc: string;
  start: number;
  end: number;
  text: string;
  tokens: number;
}

/** Does the block hold the target: any of its answer spans whole, or, without spans, any part of its document? */
export function covers(block: JudgedBlock, t: Target): boolean {
  if (block.doc !== t.doc) return false;
  if (!t.spans) return true;
  return t.spans.some((s) => block.start <= s.start && s.end <= block.end);
}

/** Lower case and single spaces, so "New  York" matches "new york". */
export function normalizeAnswer(s: string): string {
  return s.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

/**
 * Scores the context handed over for one question. Blocks are judged in order; each
 * target counts once, at the first block that holds it, so a document found in three
 * blocks is one hit (rank metrics are over the first appearance of each target).
 * - hit@k: some target is held by one of the first k blocks.
 * - recall@k: share of targets held by the first k blocks.
 * - MRR: 1 / rank of the first block holding a target.
 * - nDCG@10: graded gain of targets at their first block's rank (log₂ discount) over
 *   the ideal ordering; with `byDocument` (document-level sets) ranks are document
 *   ranks (each document's first block), the usual document nDCG.
 * - answer-in-context: a gold answer string lies in the blocks' text (headers excluded);
 *   for sets without answer strings, a target is held by some block.
 */
export function scoreQuestion(q: EvalQuestion, handed: JudgedBlock[], options: { byDocument?: boolean } = {}): Metrics {
  // Rank metrics may look at documents (first block of each); cost is what was handed over.
  const blocks = options.byDocument ? dedupeByDoc(handed) : handed;
  const firstRank = q.targets.map((t) => {
    const i = blocks.findIndex((b) => covers(b, t));
    return i < 0 ? Infinity : i + 1;
  });
  const found = (k: number) => firstRank.filter((r) => r <= k).length;
  const best = Math.min(...firstRank);
  let dcg = 0;
  q.targets.forEach((t, i) => {
    if (firstRank[i]! <= 10) dcg += t.grade / Math.log2(firstRank[i]! + 1);
  });
  const ideal = q.targets
    .map((t) => t.grade)
    .sort((a, b) => b - a)
    .slice(0, 10)
    .reduce((s, g, i) => s + g / Math.log2(i + 2), 0);
  let answerInContext: number;
  if (q.answers.length) {
    // Blocks are joined with a separator no answer contains, so an answer never spans two blocks.
    const context = blocks.map((b) => normalizeAnswer(b.text)).join('\u0000');
    answerInContext = q.answers.some((a) => context.includes(normalizeAnswer(a))) ? 1 : 0;
  } else {
    answerInContext = best < Infinity ? 1 : 0;
  }
  return {
    hitAt1: best <= 1 ? 1 : 0,
    hitAt5: best <= 5 ? 1 : 0,
    answerInContext,
    recallAt5: q.targets.length ? found(5) / q.targets.length : 0,
    mrr: best < Infinity ? 1 / best : 0,
    ndcg10: ideal > 0 ? dcg / ideal : 0,
    meanContextTokens: handed.reduce((s, b) => s + b.tokens, 0),
  };
}

/** For document-level judgements: keep each document's first block only, so ranks are document ranks. */
export function dedupeByDoc(blocks: JudgedBlock[]): JudgedBlock[] {
  const seen = new Set<string>();
  return blocks.filter((b) => (seen.has(b.doc) ? false : (seen.add(b.doc), true)));
}

export function meanMetrics(all: Metrics[]): Metrics {
  const out = Object.fromEntries(METRIC_NAMES.map((k) => [k, 0])) as unknown as Metrics;
  if (!all.length) return out;
  for (const m of all) for (const k of METRIC_NAMES) out[k] += m[k];
  for (const k of METRIC_NAMES) out[k] /= all.length;
  return out;
}

/** Adapts engine blocks to the judge (document index → id). */
export function judged(blocks: ContextBlock[], docIds: string[]): JudgedBlock[] {
  return blocks.map((b) => ({ doc: docIds[b.doc]!, start: b.start, end: b.end, text: b.text, tokens: b.tokens }));
}
