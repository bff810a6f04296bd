/**
 * An answer run's answers as files other tools read: one JSON line per question and point (the
 * CLI's --answers-out and the page's export), and a Ragas EvaluationDataset per point
 * (`user_input`, `retrieved_contexts`, `response`, `reference`; Ragas reads it with
 * EvaluationDataset.from_jsonl), so Ragas or DeepEval can judge the very same points.
 */
import type { AnswerQuestion, AnswerTable } from './answer-prompts';
import type { AnswerOutcome } from './answer-metrics';
import type { HandedContexts } from './contexts';
import { dropThinking } from '../util/model-reply';

/** What a line says about its point: strategy, retriever, budget and parameters (with the block order). */
export interface AnsweredPointInfo {
  strategy: string;
  retriever: string;
  budgetTokens: number | null;
  params: Record<string, unknown>;
}

export interface AnswerRecord {
  question_id: string;
  question: string;
  strategy: string;
  retriever: string;
  budget_tokens: number | null;
  params: Record<string, unknown>;
  /** The sources as handed over (numbered, with their labels), without the question. */
  context: string;
  /** The cleaned answer (no reasoning, citation marks or label); null when the call failed. */
  answer: string | null;
  /** The reply as the model wrote it. */
  reply: string | null;
  references: string[];
  unanswerable: boolean;
  exact: number | null;
  f1: number | null;
  abstained: boolean;
  prompt_tokens: number;
  ms: number | null;
  cached: boolean;
  failed: string | null;
  judge_correct?: number | null;
  faithfulness?: number | null;
  judge_failed?: string;
}

/** Every (point × question) with a context, in point then question order. `info` describes answer point i. */
export function answerRecords(table: AnswerTable, outcomes: readonly AnswerOutcome[], questions: readonly AnswerQuestion[], info: (answerPoint: number) => AnsweredPointInfo): AnswerRecord[] {
  const out: AnswerRecord[] = [];
  table.slots.forEach((row, i) => {
    const pi = info(i);
    row.forEach((at, q) => {
      if (at < 0) return;
      const o = outcomes[at]!;
      const question = questions[q]!;
      const p = table.prompts[at]!;
      out.push({
        question_id: question.id,
        question: question.question,
        strategy: pi.strategy,
        retriever: pi.retriever,
        budget_tokens: pi.budgetTokens,
        params: pi.params,
        context: p.context,
        answer: o.answer,
        reply: o.reply,
        references: question.references,
        unanswerable: question.unanswerable,
        exact: o.exact,
        f1: o.f1,
        abstained: o.abstained,
        prompt_tokens: o.promptTokens,
        ms: o.ms,
        cached: o.cached,
        failed: o.failed,
        ...(o.judge ? { judge_correct: o.judge.correct ?? null, faithfulness: o.judge.faithfulness ?? null, ...(o.judge.failed ? { judge_failed: o.judge.failed } : {}) } : {}),
      });
    });
  });
  return out;
}

/** One row of a Ragas EvaluationDataset (SingleTurnSample). */
export interface RagasSample {
  user_input: string;
  retrieved_contexts: string[];
  response: string;
  reference?: string;
}

/**
 * The Ragas dataset of one answered point: each answered question with the texts of the blocks
 * it was handed (in the order handed) and the answer as written; the first reference when there
 * is one (Ragas takes one). Failed answers are left out.
 */
export function ragasDataset(table: AnswerTable, outcomes: readonly AnswerOutcome[], questions: readonly AnswerQuestion[], handed: HandedContexts, answerPoint: number): RagasSample[] {
  const out: RagasSample[] = [];
  table.slots[answerPoint]!.forEach((at, q) => {
    if (at < 0) return;
    const o = outcomes[at]!;
    if (o.reply === null || o.failed !== null) return;
    const question = questions[q]!;
    out.push({
      user_input: question.question,
      retrieved_contexts: table.prompts[at]!.blocks.map((b) => handed.blocks[b]!.text),
      response: dropThinking(o.reply).trim(),
      ...(question.references[0] !== undefined ? { reference: question.references[0] } : {}),
    });
  });
  return out;
}

/** Records or samples as JSON lines. */
export function toJsonl(rows: readonly object[]): string {
  return rows.map((r) => JSON.stringify(r)).join('\n') + (rows.length ? '\n' : '');
}
