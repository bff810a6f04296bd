/**
 * What eval and eval --sweep share: the labelled set (SQuAD file, BEIR folder or a question
 * set), the engine holding its documents, the reranker, and the --json output.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { TEST_RERANKER_ID } from '../core/embed/models';
import type { Reranker } from '../core/embed/reranker';
import type { RetrievalEngine } from '../core/engine';
import { readBeir } from '../core/eval/beir';
import { baselineDifferences } from '../core/eval/compare';
import { DatasetError, type EvalSet } from '../core/eval/dataset';
import type { EvalRow } from '../core/eval/run-eval';
import { readSquadText } from '../core/eval/squad';
import type { StructureParams } from '../core/retrieve/params';
import { RETRIEVERS, type RetrieverName } from '../core/retrieve/retrievers';
import { STRATEGIES } from '../core/strategies/registry';
import type { AnswerPointResult } from '../core/answers/answer-metrics';
import { answerJson } from './answers-cli';
import type { RoutingRow } from './transform-cli';
import { makeEngine, questionDeps } from './engine-setup';
import { int, list, requestedRetrievers, type Values } from './options';
import { loadQuestionsEvalSet, sourceLineOf } from './questions-commands';
import { UsageError } from './usage';
import { modelSource } from '../node/model-source';

export function loadEvalSet(values: Values): EvalSet {
  const path = values.data;
  if (!path) throw new UsageError('eval: --data PATH is required (a SQuAD-format .json or a BEIR folder)');
  if (!existsSync(path)) throw new UsageError(`--data ${path}: no such file or folder`);
  const limitDocs = values['limit-docs'] !== undefined ? int(values['limit-docs'], 'limit-docs', 0) : undefined;
  const language = values.language;
  try {
    if (statSync(path).isDirectory()) {
      const split = values.split ?? 'test';
      const need = ['corpus.jsonl', 'queries.jsonl', join('qrels', `${split}.tsv`)];
      for (const f of need) if (!existsSync(join(path, f))) throw new UsageError(`--data ${path}: not a BEIR folder (missing ${f})`);
      const set = readBeir(
        { corpus: readFileSync(join(path, 'corpus.jsonl'), 'utf8'), queries: readFileSync(join(path, 'queries.jsonl'), 'utf8'), qrels: readFileSync(join(path, 'qrels', `${split}.tsv`), 'utf8') },
        { name: basename(path), language: language ?? 'en' },
      );
      if (limitDocs) set.docs = set.docs.slice(0, limitDocs);
      return set;
    }
    return readSquadText(readFileSync(path, 'utf8'), { limitDocs, name: basename(path), ...(language ? { language } : {}) });
  } catch (e) {
    if (e instanceof DatasetError) throw new UsageError(`--data ${path}: ${e.message}`);
    throw e;
  }
}

export async function loadReranker(values: Values): Promise<Reranker | null> {
  const choice = values.reranker ?? 'none';
  if (choice === 'none') return null;
  const model = choice === 'test' ? TEST_RERANKER_ID : choice;
  try {
    // transformers.js loads only when a model runs here.
    const { CrossEncoderReranker } = await import('../core/embed/reranker');
    return await CrossEncoderReranker.load({ model, ...modelSource() });
  } catch (e) {
    throw new UsageError(`cannot load reranker "${model}": ${(e as Error).message.split('\n')[0]}`);
  }
}

/** What eval and eval --sweep share: the set (limited), an engine holding its documents, the retrievers. */
export async function prepareEval(values: Values, structureParams: Partial<StructureParams>, files: string[] = []) {
  const strategies = list(values.strategies, STRATEGIES, 'strategies', STRATEGIES);
  const set = values.questions ? await loadQuestionsEvalSet(values, files, questionDeps) : loadEvalSet(values);
  const limitQ = values['limit-questions'] !== undefined ? int(values['limit-questions'], 'limit-questions', 0) : 0;
  if (limitQ) {
    // Unanswerable questions (answer runs) are kept in the set's proportion to the answerable ones.
    const share = set.unanswerable?.length ? set.unanswerable.length / Math.max(1, set.questions.length) : 0;
    if (set.unanswerable && limitQ < set.questions.length) set.unanswerable = set.unanswerable.slice(0, Math.round(limitQ * share));
    set.questions = set.questions.slice(0, limitQ);
  }
  const engine = await makeEngine(values, structureParams);
  const retrievers = requestedRetrievers(values) ?? (engine.embedder ? [...RETRIEVERS] : ['bm25']);
  if (!engine.embedder && retrievers.some((r) => r !== 'bm25')) throw new UsageError('--retriever vector/hybrid needs an embedder (not --embedder none)');
  // Keep only questions whose documents are in the (possibly limited) corpus.
  const before = set.questions.map((q) => q.targets.length);
  const ids = new Set(set.docs.map((d) => d.id));
  // An all-of question that lost a part to the limit is left out, not made easier.
  set.questions = set.questions.map((q) => ({ ...q, targets: q.targets.filter((t) => ids.has(t.doc)) })).filter((q, i) => q.targets.length > 0 && (q.needs !== 'all' || q.targets.length === before[i]));
  if (!set.questions.length) throw new UsageError(`--data ${values.data}: no question left to evaluate (none has its document among the ${set.docs.length} loaded${set.skipped.length ? `; ${set.skipped.length} rows skipped, first: ${set.skipped[0]}` : ''})`);
  engine.addDocuments(set.docs);
  return { set, engine, strategies, retrievers: retrievers as RetrieverName[] };
}

export function embedderLabel(engine: RetrievalEngine): string {
  return engine.embedder ? `${engine.embedder.model}${engine.embedder.isTestModel ? ' (TEST MODEL: random word-piece vectors, no learned meaning)' : ''}` : 'none';
}

/**
 * The --json output: exactly one object, one result per row or sweep point — or, with --answers,
 * per row and block order, its answer metrics (answerExact, answerF1, abstention, judgeCorrect,
 * faithfulness, promptTokens, answerMs: those that apply) beside the retrieval metrics, with
 * intervals, and `params.order`. With --query-transform every entry has `params.queryTransform`
 * (and `params.tools`), and `routing` lists the routing precision per tool set.
 */
export function printJson(set: EvalSet, engine: RetrievalEngine, rows: EvalRow[], answered?: AnswerPointResult[], routing: readonly RoutingRow[] = []): void {
  const diffs = baselineDifferences(rows, 'answerInContext');
  const entry = (r: EvalRow, i: number) => ({
    strategy: r.strategy,
    params: r.params,
    budgetTokens: r.budgetTokens,
    metrics: r.metrics,
    // 95 % percentile bootstrap over questions (1000 resamples, seed 1) of each metric.
    intervals: r.intervals,
    // answer-in-context minus naive chunks' under the same conditions, paired bootstrap.
    ...(diffs[i] ? { vsBaseline: { metric: 'answerInContext', ...diffs[i]! } } : {}),
  });
  const results = answered
    ? answered.map((a) => {
        const e = entry(rows[a.ref.point]!, a.ref.point);
        const ans = answerJson(a);
        return { ...e, params: { ...e.params, order: a.ref.order }, metrics: { ...e.metrics, ...ans.metrics }, intervals: { ...e.intervals, ...ans.intervals }, answers: ans.answers };
      })
    : rows.map(entry);
  const unanswerable = set.unanswerable?.length ?? 0;
  process.stdout.write(JSON.stringify({ dataset: set.name, questions: set.questions.length, ...(answered && unanswerable ? { unanswerable } : {}), embedder: embedderLabel(engine), ...(sourceLineOf(set) ? { sources: sourceLineOf(set) } : {}), results, ...(routing.length ? { routing } : {}) }) + '\n');
}
