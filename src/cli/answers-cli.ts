/**
 * eval --answers: judge every measured point by what a model answers with its context. The
 * options are read once into an AnswerCliOptions (readAnswerOptions) before any file is read;
 * after the retrieval run, the contexts it handed over are planned through the reply cache
 * (printed before the first call: calls, what the cache saves, tokens, time, where text goes),
 * answered (Ctrl-C keeps what was made), optionally judged, and scored per point.
 */
import type { AnswerValues } from './option-tables';
import { readFileSync, writeFileSync } from 'node:fs';
import { answerQuestionsOf } from '../core/answers/answer-prompts';
import { ANSWER_METRICS, type AnswerPointResult } from '../core/answers/answer-metrics';
import { planAnswerRun, runAnswerRun, type AnswerGenerator, type AnswerRunResult } from '../core/answers/answer-run';
import { BLOCK_ORDERS, parseBlockOrders, type BlockOrder } from '../core/answers/block-order';
import type { HandedContexts } from '../core/answers/contexts';
import { answerRecords, toJsonl } from '../core/answers/export';
import type { AnswerPromptOptions } from '../core/answers/generators';
import { checkJudgePrompts, DEFAULT_JUDGE_PROMPTS, type JudgePrompts } from '../core/answers/judge';
import { JUDGE_SETTINGS } from '../core/answers/judge-run';
import { DEFAULT_ANSWER_INSTRUCTIONS, DEFAULT_ANSWER_TOKENS } from '../core/answers/prompt';
import { MemoryReplyCache, type ReplyCache, type ReplySettings } from '../core/answers/reply-cache';
import type { EvalSet } from '../core/eval/dataset';
import type { EvalRow } from '../core/eval/run-eval';
import { DEFAULT_ENDPOINT_CONTEXT_TOKENS } from '../core/context/generators';
import type { Document } from '../core/types';
import { defaultReplyCacheDir, FolderReplyCache } from '../node/reply-cache-folder';
import { ProgressBar } from './progress';
import { visible } from './terminal';
import { generatorChoice, openGenerator, type GeneratorChoice } from './generator-cli';
import { UsageError } from './usage';




/** Everything --answers asks for, read and checked before any work. */
export interface AnswerCliOptions {
  generator: GeneratorChoice;
  judge: { generator: GeneratorChoice; prompts: JudgePrompts } | null;
  prompt: AnswerPromptOptions;
  settings: ReplySettings;
  orders: BlockOrder[];
  /** null: a cache for this run only. */
  cacheDir: string | null;
  out: string | null;
  concurrency: number;
}

function readText(path: string, option: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw new UsageError(`--${option} ${path}: ${(e as Error).message.split('\n')[0]}`);
  }
}

function readJudgePrompts(path: string | undefined): JudgePrompts {
  if (!path) return DEFAULT_JUDGE_PROMPTS;
  let raw: unknown;
  try {
    raw = JSON.parse(readText(path, 'judge-prompts'));
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(`--judge-prompts ${path}: not JSON (${(e as Error).message})`);
  }
  const prompts = structuredClone(DEFAULT_JUDGE_PROMPTS);
  for (const step of ['correct', 'statements', 'verdicts'] as const) {
    const p = (raw as Record<string, unknown> | null)?.[step] as Record<string, unknown> | undefined;
    if (p === undefined) continue;
    for (const part of ['system', 'user'] as const) {
      if (p[part] === undefined) continue;
      if (typeof p[part] !== 'string') throw new UsageError(`--judge-prompts ${path}: "${step}.${part}" must be text`);
      prompts[step][part] = p[part] as string;
    }
  }
  const problems = checkJudgePrompts(prompts);
  if (problems.length) throw new UsageError(`--judge-prompts ${path}: ${problems[0]}`);
  return prompts;
}

function whole(v: string | undefined, name: string, fallback: number, min: number): number {
  if (v === undefined) return fallback;
  const n = Number(v);
  if (v.trim() === '' || !Number.isInteger(n) || n < min) throw new UsageError(`--${name} must be a whole number ≥ ${min}, got "${v}"`);
  return n;
}

/** The answer options, or null without --answers (then any answer option is a mistake, said). */
export function readAnswerOptions(values: AnswerValues): AnswerCliOptions | null {
  if (!values.answers) {
    const stray = (['answer-prompt', 'answers-out', 'order', 'judge', 'judge-endpoint', 'judge-model', 'answer-tokens'] as const).find((k) => values[k] !== undefined);
    if (stray) throw new UsageError(`--${stray} is for answer runs: add --answers`);
    return null;
  }
  const contextTokens = whole(values['context-tokens'], 'context-tokens', DEFAULT_ENDPOINT_CONTEXT_TOKENS, 512);
  const generator = generatorChoice(values.endpoint, values.model, values['api-key-env'], contextTokens, { endpoint: 'endpoint', model: 'model', key: 'api-key-env', what: '--answers' });
  const orders = values.order === undefined ? (['score'] as BlockOrder[]) : (() => {
    const r = parseBlockOrders(values.order!);
    if ('unknown' in r) throw new UsageError(`--order: unknown "${r.unknown}" (choose from ${BLOCK_ORDERS.join(', ')})`);
    if (!r.orders.length) throw new UsageError(`--order: give one or more of ${BLOCK_ORDERS.join(', ')}`);
    return r.orders;
  })();
  if ((values['judge-endpoint'] || values['judge-model'] || values['judge-prompts']) && !values.judge) throw new UsageError('--judge-endpoint, --judge-model and --judge-prompts need --judge');
  const judge = values.judge
    ? {
        generator: values['judge-endpoint'] || values['judge-model'] ? generatorChoice(values['judge-endpoint'], values['judge-model'], values['judge-api-key-env'], contextTokens, { endpoint: 'judge-endpoint', model: 'judge-model', key: 'judge-api-key-env', what: '--judge' }) : generator,
        prompts: readJudgePrompts(values['judge-prompts']),
      }
    : null;
  const instructions = values['answer-prompt'] ? readText(values['answer-prompt'], 'answer-prompt').trim() : DEFAULT_ANSWER_INSTRUCTIONS;
  if (!instructions) throw new UsageError(`--answer-prompt ${values['answer-prompt']}: the file is empty`);
  const answerTokens = whole(values['answer-tokens'], 'answer-tokens', DEFAULT_ANSWER_TOKENS, 1);
  return {
    generator,
    judge,
    prompt: { instructions, headers: true, answerTokens },
    settings: { temperature: 0, maxTokens: answerTokens },
    orders,
    cacheDir: values.cache === 'none' ? null : (values.cache ?? defaultReplyCacheDir()),
    out: values['answers-out'] ?? null,
    concurrency: whole(values.concurrency, 'concurrency', 4, 1),
  };
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

export interface CliAnswerRun {
  run: AnswerRunResult;
  /** Answer point i is row `run.plan.table.points[i].point` at that block order. */
  results: AnswerPointResult[];
}

/**
 * Answers the contexts of `rows` (their index in `handed.contexts`), prints the plan and the
 * outcome on stderr, writes --answers-out; returns the scored points.
 */
export async function runCliAnswers(o: AnswerCliOptions, set: EvalSet, docs: readonly Document[], rows: readonly EvalRow[], handed: HandedContexts): Promise<CliAnswerRun> {
  const cache: ReplyCache = o.cacheDir ? new FolderReplyCache(o.cacheDir) : new MemoryReplyCache();
  const gen = await openGenerator(o.generator, o.concurrency);
  const judgeGen = o.judge ? (o.judge.generator === o.generator ? gen : await openGenerator(o.judge.generator, o.concurrency)) : null;
  try {
    const questions = answerQuestionsOf(set, docs);
    const controller = new AbortController();
    const answering = gen.make(o.settings);
    const judgeGenerator: AnswerGenerator | null = judgeGen ? judgeGen.make(JUDGE_SETTINGS).generator : null;
    const spec = {
      questions,
      handed,
      orders: o.orders,
      assemble: answering.assemble(o.prompt),
      generator: answering.generator,
      settings: o.settings,
      ...(o.judge && judgeGenerator ? { judge: { generator: judgeGenerator, prompts: o.judge.prompts, settings: JUDGE_SETTINGS } } : {}),
      cache,
      signal: controller.signal,
    };
    const plan = await planAnswerRun(spec);
    const a = plan.answers;
    const first = plan.requests[0];
    process.stderr.write(
      `answers: ${plan.slots} answers to score (${plural(rows.length, 'point')} × ${plural(o.orders.length, 'order')} × ${plural(questions.length, 'question')}) share ${a.requests} distinct prompts; ` +
        `${a.cached} answered from the cache${o.cacheDir ? ` (${o.cacheDir})` : ''}, ${a.calls} calls to make, about ${a.promptTokens} prompt tokens (${a.savedPromptTokens} saved by the cache), about ${a.seconds} s at an ${a.rate} rate` +
        `${o.judge ? `; then the judge: at most ${plan.judgeCallsAtMost} calls` : ''}\n` +
        (first && a.calls ? `each call: ${visible(gen.where(first.messages))}\n` : ''),
    );
    const onSigint = () => {
      process.stderr.write('\nstopping: the answers made so far are kept and scored\n');
      controller.abort();
    };
    process.once('SIGINT', onSigint);
    const bars = { answers: new ProgressBar('answers'), judge: new ProgressBar('judge') };
    let run: AnswerRunResult;
    try {
      run = await runAnswerRun(spec, plan, { onProgress: (phase, p) => bars[phase].update(p.done, p.total) });
    } finally {
      process.off('SIGINT', onSigint);
    }
    const p = run.answerRun.progress;
    process.stderr.write(`answers: ${p.calls} calls, ${p.cached} from the cache, ${p.failed} failed, in ${(p.elapsedMs / 1000).toFixed(1)} s${run.cancelled ? ' (stopped)' : ''}\n`);
    const firstFailure = [...run.answerRun.failures.values()][0];
    if (firstFailure) process.stderr.write(`first failed answer (left out of the means): ${visible(firstFailure)}\n`);
    for (const j of run.judgeRuns) if (j.progress.total) process.stderr.write(`judge: ${j.progress.calls} calls, ${j.progress.cached} from the cache, ${j.progress.failed} failed\n`);
    for (const n of run.notes) process.stderr.write(`note: ${visible(n)}\n`);
    if (o.out) {
      const records = answerRecords(plan.table, run.outcomes, questions, (i) => {
        const ref = plan.table.points[i]!;
        const row = rows[ref.point]!;
        return { strategy: row.strategy, retriever: row.retriever, budgetTokens: row.budgetTokens, params: { ...row.params, order: ref.order } };
      });
      try {
        writeFileSync(o.out, toJsonl(records));
      } catch (e) {
        throw new UsageError(`--answers-out ${o.out}: ${(e as Error).message.split('\n')[0]}`);
      }
      process.stderr.write(`answers: ${records.length} lines written to ${o.out}\n`);
    }
    return { run, results: run.results };
  } finally {
    await gen.dispose();
    if (judgeGen && judgeGen !== gen) await judgeGen.dispose();
  }
}

/** A result's answer metrics merged into the --json entry's metrics and intervals (only those that apply). */
export function answerJson(r: AnswerPointResult): { metrics: Record<string, number>; intervals: Record<string, { low: number; high: number }>; answers: AnswerPointResult['counts'] } {
  const metrics: Record<string, number> = {};
  const intervals: Record<string, { low: number; high: number }> = {};
  for (const m of ANSWER_METRICS) {
    const v = r.metrics[m];
    if (v === null) continue;
    metrics[m] = v;
    if (r.intervals[m]) intervals[m] = r.intervals[m]!;
  }
  return { metrics, intervals, answers: r.counts };
}
