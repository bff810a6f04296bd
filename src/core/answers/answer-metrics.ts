/**
 * What an answer run measures, per question and per answered point, beside the retrieval
 * metrics: exact match and F1 against the references (answerable questions with references,
 * answered), the share of correct abstentions (unanswerable questions), the judge's correctness
 * and faithfulness, and the cost — prompt tokens and time. Each has its own applicable
 * questions: a failed answer is left out of every mean (and counted), never scored 0. Means come
 * with seeded bootstrap intervals, and paired differences are taken over the questions both
 * points could be scored on.
 */
import { bootstrapMean, pairedDifference, type BootstrapOptions, type Difference } from '../eval/bootstrap';
import type { AnswerPointRef, AnswerQuestion, AnswerTable } from './answer-prompts';
import { scoreAllOf, scoreAnswer } from './exact-f1';
import { cleanAnswer, isAbstention } from './reply';
import type { StoredReply } from './run-replies';

export { ANSWER_METRIC_LABELS, ANSWER_METRICS, ANSWER_RANKING_METRICS, type AnswerMetricName, type AnswerRankingMetric } from './metric-names';
import { ANSWER_METRICS, type AnswerMetricName } from './metric-names';

/** The judge's verdicts on one prompt's answer (absent: no judge; null: not applicable or unreadable). */
export interface JudgeOutcome {
  correct?: number | null;
  faithfulness?: number | null;
  /** Why a verdict could not be had (the judge's call failed or its reply could not be read). */
  failed?: string;
}

/** One prompt's answer, scored. Every slot that sent this prompt shares it. */
export interface AnswerOutcome {
  /** The cleaned answer; null when the call failed. */
  answer: string | null;
  /** The raw reply as the model wrote it. */
  reply: string | null;
  failed: string | null;
  exact: number | null;
  f1: number | null;
  abstained: boolean;
  promptTokens: number;
  ms: number | null;
  cached: boolean;
  judge?: JudgeOutcome;
}

/** Scores every prompt of the table with its reply (or failure). */
export function scoreOutcomes(table: AnswerTable, questions: readonly AnswerQuestion[], replies: ReadonlyMap<string, StoredReply>, failures: ReadonlyMap<string, string>, judge?: ReadonlyMap<number, JudgeOutcome>): AnswerOutcome[] {
  return table.prompts.map((p, i) => {
    const q = questions[p.question]!;
    const r = replies.get(p.key);
    if (!r) return { answer: null, reply: null, failed: failures.get(p.key) ?? 'not answered (the run was cancelled or stopped first)', exact: null, f1: null, abstained: false, promptTokens: p.promptTokens, ms: null, cached: false };
    const answer = cleanAnswer(r.text);
    const abstained = isAbstention(r.text);
    const s = q.unanswerable ? null : q.needsAll ? scoreAllOf(answer, q.references, q.language) : scoreAnswer(answer, q.references, q.language);
    return {
      answer,
      reply: r.text,
      failed: answer ? null : r.text.trim() ? 'the reply holds no answer (only reasoning or citation marks)' : 'the reply is empty',
      exact: answer ? (s?.exact ?? null) : null,
      f1: answer ? (s?.f1 ?? null) : null,
      abstained,
      promptTokens: r.promptTokens,
      ms: r.ms,
      cached: r.cached,
      ...(judge?.has(i) ? { judge: judge.get(i)! } : {}),
    };
  });
}

export interface AnswerCounts {
  questions: number;
  /** Questions with a context at this point. */
  asked: number;
  answered: number;
  failed: number;
  unanswerable: number;
  /** Answerable questions the model said it could not answer (the cost of noise, or of a missing fact). */
  abstainedAnswerable: number;
  judged: number;
  judgeFailed: number;
}

export type AnswerMetrics = Record<AnswerMetricName, number | null>;

export interface AnswerPointResult {
  ref: AnswerPointRef;
  metrics: AnswerMetrics;
  intervals: Partial<Record<AnswerMetricName, { low: number; high: number }>>;
  /** Per question (the run's question order): NaN where a metric does not apply. */
  perQuestion: Record<AnswerMetricName, Float64Array>;
  counts: AnswerCounts;
}

/** Per-question values of one point (NaN: not applicable) and its counts. */
function perQuestionOf(row: Int32Array, outcomes: readonly AnswerOutcome[], questions: readonly AnswerQuestion[]): { per: Record<AnswerMetricName, Float64Array>; counts: AnswerCounts } {
  const n = questions.length;
  const per = Object.fromEntries(ANSWER_METRICS.map((m) => [m, new Float64Array(n).fill(Number.NaN)])) as Record<AnswerMetricName, Float64Array>;
  const counts: AnswerCounts = { questions: n, asked: 0, answered: 0, failed: 0, unanswerable: 0, abstainedAnswerable: 0, judged: 0, judgeFailed: 0 };
  for (let q = 0; q < n; q++) {
    const at = row[q]!;
    if (at < 0) continue;
    const o = outcomes[at]!;
    const question = questions[q]!;
    counts.asked++;
    per.promptTokens[q] = o.promptTokens;
    if (question.unanswerable) counts.unanswerable++;
    if (o.failed !== null) {
      counts.failed++;
      continue;
    }
    counts.answered++;
    if (o.ms !== null) per.answerMs[q] = o.ms;
    if (question.unanswerable) per.abstention[q] = o.abstained ? 1 : 0;
    else if (o.abstained) counts.abstainedAnswerable++;
    if (o.exact !== null) per.answerExact[q] = o.exact;
    if (o.f1 !== null) per.answerF1[q] = o.f1;
    if (o.judge) {
      if (o.judge.failed) counts.judgeFailed++;
      else counts.judged++;
      if (typeof o.judge.correct === 'number') per.judgeCorrect[q] = o.judge.correct;
      if (typeof o.judge.faithfulness === 'number') per.faithfulness[q] = o.judge.faithfulness;
    }
  }
  return { per, counts };
}

const applicable = (values: Float64Array) => Float64Array.from(values.filter((v) => !Number.isNaN(v)));

/** Every answered point's metrics, intervals (seeded percentile bootstrap) and counts. */
export function answerPointResults(table: AnswerTable, outcomes: readonly AnswerOutcome[], questions: readonly AnswerQuestion[], options: BootstrapOptions = {}): AnswerPointResult[] {
  return table.points.map((ref, i) => {
    const { per, counts } = perQuestionOf(table.slots[i]!, outcomes, questions);
    const metrics = {} as AnswerMetrics;
    const intervals: AnswerPointResult['intervals'] = {};
    for (const m of ANSWER_METRICS) {
      const values = applicable(per[m]);
      if (!values.length) {
        metrics[m] = null;
        continue;
      }
      const iv = bootstrapMean(values, options);
      metrics[m] = iv.mean;
      intervals[m] = { low: iv.low, high: iv.high };
    }
    return { ref, metrics, intervals, perQuestion: per, counts };
  });
}

/** a − b on an answer metric over the questions both have it for, with the paired bootstrap; null when none. */
export function answerDifference(a: Pick<AnswerPointResult, 'perQuestion'>, b: Pick<AnswerPointResult, 'perQuestion'>, metric: AnswerMetricName, options: BootstrapOptions = {}): Difference | null {
  const pa = a.perQuestion[metric];
  const pb = b.perQuestion[metric];
  if (pa.length !== pb.length) return null;
  const xs: number[] = [];
  const ys: number[] = [];
  for (let i = 0; i < pa.length; i++) {
    if (Number.isNaN(pa[i]!) || Number.isNaN(pb[i]!)) continue;
    xs.push(pa[i]!);
    ys.push(pb[i]!);
  }
  return xs.length ? pairedDifference(xs, ys, options) : null;
}
