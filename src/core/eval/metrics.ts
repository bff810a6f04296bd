import type { Corpus } from '../structure/corpus';
import type { ContextBlock } from '../types';
import { bootstrapMean, resampleIndices, type BootstrapOptions } from './bootstrap';
import { DatasetError, type EvalQuestion, type Target } from './dataset';

/** Metrics of one question (or their mean over a set). */
export interface Metrics {
  hitAt1: number;
  hitAt5: number;
  answerInContext: number;
  recallAt5: number;
  mrr: number;
  ndcg10: number;
  /** Share of the handed-over text inside the gold region (see scoreQuestion): 1 − noise. */
  contextPrecision: number;
  meanContextTokens: number;
}

export type MetricName = keyof Metrics;

/** Every metric, in the order tables and exports show them. */
export const METRIC_NAMES: MetricName[] = ['hitAt1', 'hitAt5', 'answerInContext', 'recallAt5', 'mrr', 'ndcg10', 'contextPrecision', 'meanContextTokens'];

export const METRIC_LABELS: Record<MetricName, string> = {
  hitAt1: 'hit@1',
  hitAt5: 'hit@5',
  answerInContext: 'answer in context',
  recallAt5: 'recall@5',
  mrr: 'MRR',
  ndcg10: 'nDCG@10',
  contextPrecision: 'context precision',
  meanContextTokens: 'context tokens',
};

/** A 95 % bootstrap interval per metric (seeded: the same questions give the same interval). */
export type MetricIntervals = Record<MetricName, { low: number; high: number }>;

/** A character range of a document that holds the answer (the sentences around its spans). */
export interface GoldRegion {
  doc: string;
  start: number;
  end: number;
}

/** What "best" can mean in a sweep (higher is better), the default first. */
export const RANKING_METRICS: MetricName[] = ['answerInContext', 'hitAt1', 'hitAt5', 'mrr', 'ndcg10', 'recallAt5'];

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
 * A question that needs all its targets (`needs: 'all'`, a compound question) is found at R,
 * the rank at which its LAST target is first held (∞ while any is missing):
 * - hit@k: R ≤ k (hit@1 only when one block holds every part); MRR: 1 / R.
 * - nDCG@10: the whole evidence is one relevant item reached at R, against the ideal ranking
 *   that reaches it at n (the number of parts, each in its own block at the top):
 *   log₂(n + 1) / log₂(R + 1), at most 1 (a block holding two parts completes it sooner),
 *   0 beyond rank 10. With one part this is the usual 1 / log₂(R + 1).
 * - recall@5: the share of its parts held by the first 5 blocks (as for any question).
 * - answer-in-context: every answer string lies in the context, and every target without
 *   spans is held (without strings: every target is held). Context precision does not change.
 * - context precision: of the characters of text handed over (every block, in full,
 *   headers excluded), the share inside a gold region: `gold` when given (goldRegions:
 *   the sentences holding an answer span), else each target's spans, or, for targets
 *   without spans, their whole documents. 0 when nothing was handed over.
 */
export function scoreQuestion(q: EvalQuestion, handed: JudgedBlock[], options: { byDocument?: boolean; gold?: GoldRegion[] } = {}): Metrics {
  // Rank metrics may look at documents (first block of each); cost is what was handed over.
  const blocks = options.byDocument ? dedupeByDoc(handed) : handed;
  const firstRank = q.targets.map((t) => {
    const i = blocks.findIndex((b) => covers(b, t));
    return i < 0 ? Infinity : i + 1;
  });
  const found = (k: number) => firstRank.filter((r) => r <= k).length;
  const all = q.needs === 'all';
  // The rank at which the question counts as found: its first target's, or (all-of) its last one's.
  const at = !q.targets.length ? Infinity : all ? Math.max(...firstRank) : Math.min(...firstRank);
  let ndcg10: number;
  if (all) {
    ndcg10 = at <= 10 ? Math.min(1, Math.log2(q.targets.length + 1) / Math.log2(at + 1)) : 0;
  } else {
    let dcg = 0;
    q.targets.forEach((t, i) => {
      if (firstRank[i]! <= 10) dcg += t.grade / Math.log2(firstRank[i]! + 1);
    });
    const ideal = q.targets
      .map((t) => t.grade)
      .sort((a, b) => b - a)
      .slice(0, 10)
      .reduce((s, g, i) => s + g / Math.log2(i + 2), 0);
    ndcg10 = ideal > 0 ? dcg / ideal : 0;
  }
  let answerInContext: number;
  if (q.answers.length) {
    // Blocks are joined with a separator no answer contains, so an answer never spans two blocks.
    const context = blocks.map((b) => normalizeAnswer(b.text)).join('\u0000');
    const held = (a: string) => context.includes(normalizeAnswer(a));
    // All-of: every string, and every part named only by its document (no string to look for) held.
    answerInContext = (all ? q.answers.every(held) && q.targets.every((t, i) => t.spans || firstRank[i]! < Infinity) : q.answers.some(held)) ? 1 : 0;
  } else {
    answerInContext = at < Infinity ? 1 : 0;
  }
  return {
    hitAt1: at <= 1 ? 1 : 0,
    hitAt5: at <= 5 ? 1 : 0,
    answerInContext,
    recallAt5: q.targets.length ? found(5) / q.targets.length : 0,
    mrr: at < Infinity ? 1 / at : 0,
    ndcg10,
    contextPrecision: contextPrecision(handed, options.gold ?? targetRegions(q)),
    meanContextTokens: handed.reduce((s, b) => s + b.tokens, 0),
  };
}

/** Gold regions from the targets alone: answer spans, or whole documents (end = ∞). */
function targetRegions(q: EvalQuestion): GoldRegion[] {
  return q.targets.flatMap((t) => (t.spans ? t.spans.map((s) => ({ doc: t.doc, start: s.start, end: s.end })) : [{ doc: t.doc, start: 0, end: Infinity }]));
}

/** Characters of the blocks inside the union of the regions, over all characters of the blocks. */
export function contextPrecision(blocks: readonly Pick<JudgedBlock, 'doc' | 'start' | 'end'>[], gold: readonly GoldRegion[]): number {
  let total = 0;
  let inside = 0;
  for (const b of blocks) {
    total += b.end - b.start;
    // Regions of the block's document, merged so overlapping spans count once.
    const rs = gold.filter((g) => g.doc === b.doc).sort((x, y) => x.start - y.start);
    let covered = b.start;
    for (const r of rs) {
      const lo = Math.max(r.start, covered);
      const hi = Math.min(r.end, b.end);
      if (hi > lo) {
        inside += hi - lo;
        covered = hi;
      }
    }
  }
  return total > 0 ? inside / total : 0;
}

/**
 * The gold regions of a question in a corpus: for each answer span, the whole sentence
 * atoms it overlaps (the answer's sentence range), so precision does not punish a block for
 * holding the rest of the answer's sentence. Targets without spans: the whole document.
 */
export function goldRegions(q: EvalQuestion, corpus: Corpus): GoldRegion[] {
  const out: GoldRegion[] = [];
  for (const t of q.targets) {
    const d = corpus.docs.findIndex((doc) => doc.id === t.doc);
    if (!t.spans || d < 0) {
      out.push({ doc: t.doc, start: 0, end: Infinity });
      continue;
    }
    for (const span of t.spans) {
      let start = span.start;
      let end = span.end;
      for (let i = corpus.docStarts[d]!; i < corpus.docStarts[d + 1]!; i++) {
        const s = corpus.sentences[i]!;
        if (s.end > span.start && s.start < span.end) {
          start = Math.min(start, s.start);
          end = Math.max(end, s.end);
        }
      }
      out.push({ doc: t.doc, start, end });
    }
  }
  return out;
}

/** Each metric's mean's 95 % percentile-bootstrap interval, all metrics on the same resamples. */
export function metricIntervals(per: readonly Metrics[], options: BootstrapOptions = {}): MetricIntervals {
  // Intervals of nothing are NaN ("0.000 (NaN–NaN)" was printed for every metric): a run with no question is refused.
  if (!per.length) throw new DatasetError('no questions to measure: every question of the set was skipped or has no document in the corpus');
  const indices = resampleIndices(per.length, options);
  const out = {} as MetricIntervals;
  for (const k of METRIC_NAMES) {
    const iv = bootstrapMean(
      per.map((m) => m[k]),
      { ...options, indices },
    );
    out[k] = { low: iv.low, high: iv.high };
  }
  return out;
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
