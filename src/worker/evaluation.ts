/**
 * The evaluation lab's worker side: importing labelled sets, running sweeps over the
 * engine with progress and cancel, and replaying one question at chosen points.
 */
import { answerQuestionsOf } from '../core/answers/answer-prompts';
import { ContextCollector } from '../core/answers/contexts';
import type { ContextBlock } from '../core/types';
import { readBeir } from '../core/eval/beir';
import type { RetrieverName } from '../core/retrieve/retrievers';
import { transformPlan, type SweepTransform } from '../core/transform/retrieval';
import { TRANSFORM_WORDS, type QueryTransform } from '../core/transform/rewrites';
import { rightRoutes, routedTools, routingPrecision } from '../core/transform/routing';
import { foundByTool } from '../core/transform/routing-eval';
import { PAGE_TOOL_SET, rewriteKey } from '../core/transform/run-rewrites';
import { DatasetError, type EvalSet } from '../core/eval/dataset';
import { judged, scoreQuestion } from '../core/eval/metrics';
import { readSimpleSet } from '../core/eval/simple';
import { readSquad } from '../core/eval/squad';
import { defaultSweep, recommend, sweep, type SweepSpec } from '../core/eval/sweep';
import type { RetrievalEngine } from '../core/engine';
import { unitKinds } from '../core/eval/run-eval';
import { retrievalParams, type UnitKind } from '../core/retrieve/params';
import { applyVariant, currentVariant, forEachVariant, variantLabel, variantsToCompare } from '../core/eval/variants';
import type { Document } from '../core/types';
import { describeSources, toEvalSet } from '../core/questions/evaluate-set';
import type { QuestionSet, QuestionSourceKind } from '../core/questions/types';
import type { BlockView, EvalPointQuery, EvalPointView, EvalProgressMessage, EvalQuestionResult, EvalRunResult, EvalRunSpec, EvalSetSummary, InputFileMessage } from './protocol';

const decoder = new TextDecoder('utf-8');
const text = (f: InputFileMessage) => decoder.decode(f.bytes);

/**
 * Reads what the user dropped as a labelled set: one SQuAD-format .json, a BEIR folder's
 * files (corpus.jsonl, queries.jsonl and a qrels .tsv), or a JSONL/CSV of questions with
 * answers or gold documents (judged against `current`, the corpus as it is).
 */
export function readEvalFiles(files: InputFileMessage[], current: Document[]): { set: EvalSet; format: EvalSetSummary['format'] } {
  const byName = (re: RegExp) => files.find((f) => re.test(f.name.split(/[\\/]/).pop() ?? f.name));
  const corpus = byName(/^corpus\.jsonl$/i);
  const queries = byName(/^queries\.jsonl$/i);
  const qrels = byName(/\.tsv$/i);
  if (corpus || queries) {
    if (!corpus || !queries || !qrels) throw new DatasetError('a BEIR set needs corpus.jsonl, queries.jsonl and a qrels .tsv file, dropped together');
    return { set: readBeir({ corpus: text(corpus), queries: text(queries), qrels: text(qrels) }, { name: 'BEIR set' }), format: 'beir' };
  }
  if (files.length !== 1) throw new DatasetError('drop one labelled file (SQuAD .json, .jsonl or .csv), or the three files of a BEIR set');
  const f = files[0]!;
  if (/\.json$/i.test(f.name)) {
    let json: unknown;
    try {
      json = JSON.parse(text(f));
    } catch (e) {
      throw new DatasetError(`${f.name} is not valid JSON (${(e as Error).message})`);
    }
    return { set: readSquad(json, { name: f.name }), format: 'squad' };
  }
  if (/\.(jsonl|csv|tsv|txt)$/i.test(f.name)) return { set: readSimpleSet(text(f), f.name, current), format: 'simple' };
  throw new DatasetError(`${f.name}: use a SQuAD .json, a .jsonl or .csv of questions, or a BEIR folder's files`);
}

export function summarize(set: EvalSet, format: EvalSetSummary['format']): EvalSetSummary {
  return { name: set.name, format, questions: set.questions.length, docs: set.docs.length, skipped: set.skipped };
}

/** The sweep grid for a run: swept dimensions get the default grid, the others the view's value. */
export function sweepSpecFor(spec: EvalRunSpec, reranking: boolean): SweepSpec {
  const c = spec.current;
  const grid = defaultSweep();
  return {
    strategies: spec.strategies,
    retrievers: spec.retrievers,
    budgets: spec.budgets,
    windows: spec.windows ? grid.windows : [{ before: c.window.before, after: c.window.after }],
    thresholds: spec.thresholds ? grid.thresholds : [c.merge.threshold],
    rrfC: spec.rrfGrid ? grid.rrfC : [c.rrf.c],
    bm25Weights: spec.rrfGrid ? grid.bm25Weights : [c.rrf.weights.bm25 / Math.max(1e-9, c.rrf.weights.bm25 + c.rrf.weights.vector)],
    rerank: spec.rerank && reranking ? [false, true] : [false],
    topK: Math.max(50, c.topK),
  };
}

type Emit = (p: EvalProgressMessage) => void;

/** Embeds whatever the current header variant lacks, reporting it as evaluation progress. */
async function embedVariant(engine: RetrievalEngine, kinds: UnitKind[], emit: Emit, signal: AbortSignal, pass: string): Promise<void> {
  if (!engine.embedder) return;
  for (const kind of kinds) {
    await engine.embedUnits(kind, { signal, onEmbedProgress: (p) => emit({ kind: 'eval', phase: 'embed', done: p.done, total: p.total, pass }) });
  }
}

/**
 * Runs the sweep once per engine variant asked for (headers, late chunking, contextual
 * retrieval off and on: eval/variants.ts), on the engine as it is (documents, model, chunk
 * sizes), and says what is best at each budget. The engine's variant is put back afterwards;
 * a model that cannot late-chunk is refused with its reason before any work.
 */
export async function runEvaluation(engine: RetrievalEngine, set: EvalSet, format: EvalSetSummary['format'], spec: EvalRunSpec, emit: Emit, signal: AbortSignal): Promise<EvalRunResult> {
  const t0 = performance.now();
  const compare = { headers: spec.headers, late: Boolean(spec.late), contextual: Boolean(spec.contextual) };
  const variants = variantsToCompare(engine, compare);
  const sweepSpec = sweepSpecFor(spec, engine.reranker !== null);
  const retrievers = engine.embedder ? spec.retrievers : spec.retrievers.filter((r) => r === 'bm25');
  if (!retrievers.length) throw new Error('vector and hybrid retrieval need an embedding model: load one, or choose BM25');
  const kinds = unitKinds(spec.strategies, spec.current);
  const points: EvalPointView[] = [];
  const transforms = sweepTransforms(spec);
  // With answers: what each point handed over for each question, by the point's index in `points`.
  const collector = spec.answers ? new ContextCollector(engine.corpus) : null;
  // Semantic chunks are found with the model even when only BM25 retrieves them (all header variants share them).
  if (engine.embedder && kinds.includes('semantic')) await engine.buildSemanticChunks({ signal, onEmbedProgress: (p) => emit({ kind: 'eval', phase: 'embed', done: p.done, total: p.total, pass: 'semantic chunks' }) });
  await forEachVariant(engine, variants, async (v) => {
    const pass = variantLabel(v, compare);
    if (retrievers.some((r) => r !== 'bm25')) await embedVariant(engine, kinds, emit, signal, pass);
    // Contextual vectors of the contexts written (one embedding each; the Contextual chunks column needs them either way).
    if (engine.embedder && retrievers.some((r) => r !== 'bm25')) for (const kind of kinds) await engine.contexts.embed(kind, { signal });
    // With query transformations: the question as asked, then each transformation (the rewrites the page wrote).
    for (const t of transforms) {
      const base = points.length;
      const label = [pass, t ? TRANSFORM_WORDS[t.params.queryTransform as QueryTransform] : ''].filter(Boolean).join(' · ');
      const found = await sweep(engine, set, { ...sweepSpec, retrievers }, {
        signal,
        onProgress: (p) => emit({ kind: 'eval', phase: 'sweep', done: p.done, total: p.total, ...(label ? { pass: label } : {}) }),
        ...(collector ? { onBlocks: (point: number, q: number, blocks: ContextBlock[]) => collector.add(base + point, q, blocks) } : {}),
        ...(t ? { transform: t } : {}),
      });
      points.push(...found.map((p) => ({ ...p, headers: v.headers, ...(v.late ? { late: true } : {}), ...(v.contextual ? { contextual: true } : {}), params: { ...p.params, headers: v.headers } })));
    }
  });
  const routing = spec.transform ? await evalRouting(engine, set, spec, retrievers[0]!) : [];
  return {
    set: summarize(set, format),
    points,
    recommendations: recommend(points, spec.metric),
    questions: set.questions.map((q) => ({ id: q.id, question: q.question, answers: q.answers })),
    ms: performance.now() - t0,
    ...(collector ? { answering: { questions: answerQuestionsOf(set, engine.corpus.docs), contexts: collector.result(points.length) } } : {}),
    ...(routing.length ? { routing } : {}),
  };
}

/** The transformations of a run as the sweep runs them: the question as asked first (null), then each with the page's rewrites. */
function sweepTransforms(spec: EvalRunSpec): (SweepTransform | null)[] {
  const t = spec.transform;
  if (!t) return [null];
  const rewrites = new Map(Object.entries(t.rewrites));
  return [
    null,
    ...t.transforms
      .filter((x) => x !== 'none')
      .map((x) => {
        const routes = x === 'subquestions' || x === 'router';
        return {
          params: { queryTransform: x, ...(routes ? { tools: PAGE_TOOL_SET } : {}) },
          plan: (q: { question: string }, retriever: RetrieverName) =>
            transformPlan(q.question, rewrites.get(rewriteKey(x, routes ? PAGE_TOOL_SET : null, q.question)) ?? { kind: 'fallback', transform: x, note: 'no rewrite was written' }, retriever, routes ? t.tools : []),
        };
      }),
  ];
}

/** Routing precision of the run's routing transformations, measured with its first strategy at its first budget. */
async function evalRouting(engine: RetrievalEngine, set: EvalSet, spec: EvalRunSpec, retriever: RetrieverName): Promise<NonNullable<EvalRunResult['routing']>> {
  const t = spec.transform!;
  const routing = t.transforms.filter((x): x is 'subquestions' | 'router' => x === 'subquestions' || x === 'router');
  if (!routing.length) return [];
  const p = retrievalParams({ ...spec.current, retriever, budgetTokens: spec.budgets[0] ?? null });
  const right = rightRoutes(await foundByTool(engine, set.questions, t.tools, spec.strategies[0]!, p), set.questions.length);
  return routing.map((x) => {
    const routed = set.questions.map((q) => routedTools(t.rewrites[rewriteKey(x, PAGE_TOOL_SET, q.question)]));
    return { transform: x, toolSet: PAGE_TOOL_SET, strategy: spec.strategies[0]!, budgetTokens: p.budgetTokens, ...routingPrecision(right, routed) };
  });
}

/**
 * Runs the sweep on the corpus's question set (or its marked or generated part), exactly as on
 * an imported set; the result says where its questions came from and what was left out.
 * `set` is the whole stored set; the questions evaluated are written into `ran` for replays.
 */
export async function runOnQuestionSet(engine: RetrievalEngine, set: QuestionSet, spec: EvalRunSpec, emit: Emit, signal: AbortSignal, ran: (s: EvalSet) => void): Promise<EvalRunResult> {
  const subset = spec.questions?.subset ?? 'all';
  const only = subset === 'all' ? undefined : subset;
  const q = toEvalSet(set, engine.corpus.docs, { ...(only ? { only } : {}), name: only ? `Question set (${only} only)` : 'Question set', includeDocs: false });
  const sources = describeSources(set, { ...(only ? { only } : {}), leftOut: q.leftOut });
  if (!q.set.questions.length) throw new Error(`No ${only ? `${only} ` : ''}questions with answers to evaluate (${sources}): mark answers while exploring, or generate questions.`);
  ran(q.set);
  const result = await runEvaluation(engine, q.set, 'questions', spec, emit, signal);
  const kindOf = new Map(set.questions.map((x) => [x.id, x.source.kind]));
  const kinds = q.set.questions.map((x) => kindOf.get(x.id) ?? 'imported');
  const counts: Record<QuestionSourceKind, number> = { marked: 0, generated: 0, imported: 0 };
  for (const k of kinds) counts[k]++;
  return {
    ...result,
    // The set's own skipped lines (why each left-out question was not scored) are in set.skipped.
    questions: result.questions.map((x, i) => ({ ...x, source: kinds[i]! })),
    questionSet: { subset, sources, counts, unanswerable: q.leftOut.unanswerable, missing: q.leftOut.missingDocs + q.leftOut.staleSpans },
  };
}

/** Replays one question at chosen points: what each handed over and whether the answer was in it. */
export async function replayQuestion(
  engine: RetrievalEngine,
  set: EvalSet,
  questionId: string,
  points: EvalPointQuery[],
  view: (b: import('../core/types').ContextBlock) => BlockView,
): Promise<EvalQuestionResult> {
  const q = set.questions.find((x) => x.id === questionId);
  if (!q) throw new Error('that question is not in the imported set');
  const original = currentVariant(engine);
  const docIds = engine.corpus.docs.map((d) => d.id);
  const docLevel = set.questions.every((x) => x.targets.every((t) => !t.spans));
  const out: EvalQuestionResult['points'] = [];
  try {
    for (const point of points) {
      applyVariant(engine, { headers: point.headers, late: point.late ?? original.late, contextual: point.contextual ?? original.contextual });
      const p = retrievalParams({ ...point.params, retriever: point.retriever, budgetTokens: point.budgetTokens, rerank: { enabled: point.rerank, topN: 50 } });
      const [r] = await engine.search(q.question, [point.strategy], p);
      const m = scoreQuestion(q, judged(r!.blocks, docIds), { byDocument: docLevel });
      out.push({ point, found: m.answerInContext === 1, firstRank: m.mrr > 0 ? Math.round(1 / m.mrr) : null, blocks: r!.blocks.map(view), totalTokens: r!.totalTokens });
    }
  } finally {
    applyVariant(engine, original);
  }
  return { question: { id: q.id, question: q.question, answers: q.answers }, points: out };
}
