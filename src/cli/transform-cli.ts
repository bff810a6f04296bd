/**
 * --query-transform for eval and query: none, multiquery, subquestions, hyde, router — each a
 * measured dimension. The options are read once into a TransformCliOptions before any file is
 * read; once the documents are in, the tool sets are resolved (--tools default|documents|FILE,
 * comma-separated: each a set whose routing precision is measured), every question's rewrites
 * are planned through the reply cache (printed before the first call), asked, and each
 * transformation becomes a SweepTransform the evaluation runs with.
 */
import type { TransformValues } from './option-tables';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { MemoryReplyCache, type ReplyCache } from '../core/answers/reply-cache';
import type { RetrievalEngine } from '../core/engine';
import type { EvalQuestion } from '../core/eval/dataset';
import type { RetrievalParams } from '../core/retrieve/params';
import type { StrategyName } from '../core/strategies/registry';
import { routedTools, rightRoutes, routingPrecision } from '../core/transform/routing';
import { foundByTool } from '../core/transform/routing-eval';
import { DEFAULT_ENDPOINT_CONTEXT_TOKENS } from '../core/context/generators';
import { findDocument } from '../core/questions/formats/resolve';
import type { RetrieverName } from '../core/retrieve/retrievers';
import { transformPlan, type SweepTransform } from '../core/transform/retrieval';
import { DEFAULT_VARIANTS, QUERY_TRANSFORMS, TRANSFORM_WORDS, type QueryTransform, type Rewrite } from '../core/transform/rewrites';
import { planRewrites, REWRITE_SETTINGS, rewriteKey, rewriteRequests, runRewrites, type ToolSet } from '../core/transform/run-rewrites';
import { DEFAULT_TOOLS, documentTools, readTools, ToolsError, type QueryTool } from '../core/transform/tools';
import type { Document } from '../core/types';
import { defaultReplyCacheDir, FolderReplyCache } from '../node/reply-cache-folder';
import type { ExportTransform } from '../core/export/transform-code';
import { generatorChoice, openGenerator, type GeneratorChoice } from './generator-cli';
import { ProgressBar } from './progress';
import { visible } from './terminal';
import { UsageError } from './usage';




/** A tool set as named on the command line; files are read at once, documents when they are in. */
type ToolSetSource = { name: string; kind: 'default' } | { name: string; kind: 'documents' } | { name: string; kind: 'file'; tools: QueryTool[] };

export interface TransformCliOptions {
  transforms: QueryTransform[];
  toolSets: ToolSetSource[];
  variants: number;
  /** null when only `none` is asked: nothing to write. */
  generator: GeneratorChoice | null;
  cacheDir: string | null;
}

function readToolFile(path: string): ToolSetSource {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new UsageError(`--tools ${path}: ${e instanceof SyntaxError ? `not JSON (${e.message})` : (e as Error).message.split('\n')[0]}`);
  }
  try {
    return { name: basename(path).replace(/\.json$/i, ''), kind: 'file', tools: readTools(raw) };
  } catch (e) {
    if (e instanceof ToolsError) throw new UsageError(`--tools ${path}: ${e.message}`);
    throw e;
  }
}

/** The transformation options, or null without --query-transform (then --tools or --variants is a mistake, said). */
export function readTransformOptions(values: TransformValues): TransformCliOptions | null {
  if (values['query-transform'] === undefined) {
    if (values.tools !== undefined) throw new UsageError('--tools is for --query-transform subquestions or router');
    if (values.variants !== undefined) throw new UsageError('--variants is for --query-transform multiquery');
    return null;
  }
  const items = values['query-transform'].split(',').map((s) => s.trim()).filter(Boolean);
  for (const i of items) if (!(QUERY_TRANSFORMS as readonly string[]).includes(i)) throw new UsageError(`--query-transform: unknown "${i}" (choose from ${QUERY_TRANSFORMS.join(', ')})`);
  if (!items.length) throw new UsageError(`--query-transform: give one or more of ${QUERY_TRANSFORMS.join(', ')}`);
  const transforms = [...new Set(items)] as QueryTransform[];
  const variants = values.variants === undefined ? DEFAULT_VARIANTS : Number(values.variants);
  if (!Number.isInteger(variants) || variants < 1 || variants > 10) throw new UsageError(`--variants must be a whole number from 1 to 10, got "${values.variants}"`);
  const toolSets: ToolSetSource[] = (values.tools ?? 'default').split(',').map((s) => s.trim()).filter(Boolean).map((s) => (s === 'default' ? { name: 'default', kind: 'default' as const } : s === 'documents' ? { name: 'documents', kind: 'documents' as const } : readToolFile(s)));
  const names = new Set<string>();
  for (const t of toolSets) {
    if (names.has(t.name)) throw new UsageError(`--tools: two tool sets are named "${t.name}"`);
    names.add(t.name);
  }
  const writes = transforms.some((t) => t !== 'none');
  const contextTokens = values['context-tokens'] === undefined ? DEFAULT_ENDPOINT_CONTEXT_TOKENS : Number(values['context-tokens']);
  const generator = writes ? generatorChoice(values.endpoint, values.model, values['api-key-env'], contextTokens, { endpoint: 'endpoint', model: 'model', key: 'api-key-env', what: '--query-transform' }) : null;
  return { transforms, toolSets, variants, generator, cacheDir: values.cache === 'none' ? null : (values.cache ?? defaultReplyCacheDir()) };
}

/** The tool sets with their tools, documents resolved (a tool's `document` may name a title or file). */
export function resolveToolSets(o: TransformCliOptions, docs: readonly Document[], retriever: RetrieverName): ToolSet[] {
  return o.toolSets.map((s) => {
    if (s.kind === 'default') return { name: s.name, tools: DEFAULT_TOOLS };
    if (s.kind === 'documents') return { name: s.name, tools: [...DEFAULT_TOOLS, ...documentTools(docs, retriever)] };
    return {
      name: s.name,
      tools: s.tools.map((t) => {
        if (!t.document) return t;
        const d = findDocument(docs, t.document);
        if (!d) throw new UsageError(`--tools ${s.name}: tool ${t.name} names a document that is not loaded ("${t.document}")`);
        return { ...t, document: d.id };
      }),
    };
  });
}

/** One measured transformation: with its tool set where it routes. */
export interface TransformRun {
  transform: QueryTransform;
  toolSet: ToolSet | null;
  sweep: SweepTransform;
}

/**
 * Plans, prints and asks every question's rewrites, then gives one TransformRun per
 * transformation (and tool set, for sub-questions and the router).
 */
export async function prepareTransforms(o: TransformCliOptions, questions: readonly string[], toolSets: readonly ToolSet[], concurrency = 4): Promise<{ runs: TransformRun[]; rewrites: Map<string, Rewrite> }> {
  let rewrites = new Map<string, Rewrite>();
  if (o.generator) {
    const cache: ReplyCache = o.cacheDir ? new FolderReplyCache(o.cacheDir) : new MemoryReplyCache();
    const gen = await openGenerator(o.generator, concurrency);
    try {
      const writer = gen.make(REWRITE_SETTINGS).generator;
      const requests = rewriteRequests(questions, { transforms: o.transforms, toolSets, variants: o.variants }, writer.model, writer.count);
      const plan = await planRewrites(requests, cache, { concurrency: writer.caller.concurrency });
      process.stderr.write(
        `query transformations: ${plan.requests} rewrites (${new Set(questions).size} questions × ${o.transforms.filter((t) => t !== 'none').join(', ')}${toolSets.length > 1 ? ` × ${toolSets.length} tool sets where tools are chosen` : ''}); ` +
          `${plan.cached} from the cache${o.cacheDir ? ` (${o.cacheDir})` : ''}, ${plan.calls} calls to make, about ${plan.promptTokens} prompt tokens, about ${plan.seconds} s at an ${plan.rate} rate\n` +
          (plan.calls && requests[0] ? `each call: ${visible(gen.where(requests[0].messages))}\n` : ''),
      );
      const controller = new AbortController();
      const onSigint = () => {
        process.stderr.write('\nstopping: questions without a rewrite are retrieved as asked\n');
        controller.abort();
      };
      process.once('SIGINT', onSigint);
      const bar = new ProgressBar('rewrites');
      try {
        const run = await runRewrites(requests, cache, writer.caller, { signal: controller.signal, onProgress: (p) => bar.update(p.done, p.total), variants: o.variants });
        rewrites = run.rewrites;
        const fallbacks = [...run.rewrites.values()].filter((r) => r.kind === 'fallback');
        process.stderr.write(`query transformations: ${run.progress.calls} calls, ${run.progress.cached} from the cache, ${run.progress.failed} failed; ${fallbacks.length} questions retrieved as asked instead${fallbacks[0]?.kind === 'fallback' ? ` (first: ${visible(fallbacks[0].note)})` : ''}\n`);
        for (const n of run.notes) process.stderr.write(`note: ${visible(n)}\n`);
      } finally {
        process.off('SIGINT', onSigint);
      }
    } finally {
      await gen.dispose();
    }
  }
  const runs: TransformRun[] = [];
  for (const t of o.transforms) {
    for (const set of t === 'subquestions' || t === 'router' ? toolSets : [null]) {
      runs.push({
        transform: t,
        toolSet: set,
        sweep: {
          params: { queryTransform: t, ...(set ? { tools: set.name } : {}) },
          plan: (q, retriever) => transformPlan(q.question, t === 'none' ? { kind: 'none' } : (rewrites.get(rewriteKey(t, set?.name ?? null, q.question)) ?? { kind: 'fallback', transform: t, note: 'no rewrite was written' }), retriever, set?.tools ?? []),
        },
      });
    }
  }
  return { runs, rewrites };
}

export function transformLabel(r: TransformRun): string {
  return `${TRANSFORM_WORDS[r.transform]}${r.toolSet ? ` (tools: ${r.toolSet.name})` : ''}`;
}

export interface RoutingRow {
  toolSet: string;
  transform: 'subquestions' | 'router';
  strategy: string;
  budgetTokens: number | null;
  cases: number;
  correct: number;
  precision: number | null;
  byTool: Record<string, { cases: number; correct: number }>;
}

/**
 * Routing precision of every routing run (sub-questions, router) per tool set: the right route of
 * each answerable question measured with `strategy` at the run's first retrieval parameters.
 */
export async function routingReport(engine: RetrievalEngine, questions: readonly EvalQuestion[], runs: readonly TransformRun[], rewrites: ReadonlyMap<string, Rewrite>, strategy: StrategyName, p: RetrievalParams): Promise<RoutingRow[]> {
  const out: RoutingRow[] = [];
  const rightBySet = new Map<string, (string | null)[]>();
  for (const r of runs) {
    if ((r.transform !== 'subquestions' && r.transform !== 'router') || !r.toolSet) continue;
    let right = rightBySet.get(r.toolSet.name);
    if (!right) rightBySet.set(r.toolSet.name, (right = rightRoutes(await foundByTool(engine, questions, r.toolSet.tools, strategy, p), questions.length)));
    const routed = questions.map((q) => routedTools(rewrites.get(rewriteKey(r.transform, r.toolSet!.name, q.question))));
    out.push({ toolSet: r.toolSet.name, transform: r.transform, strategy, budgetTokens: p.budgetTokens, ...routingPrecision(right, routed) });
  }
  return out;
}

/** The routing table for people: per tool set and transformation, right routes of the questions that have one. */
export function routingLines(rows: readonly RoutingRow[]): string[] {
  return rows.map(
    (r) =>
      `routing precision, tools ${r.toolSet}, ${r.transform}: ${r.precision === null ? '– (no question is found by exactly one tool)' : `${r.precision.toFixed(3)} (${r.correct} of ${r.cases} questions found by exactly one tool were routed to it)`}` +
      (r.cases ? ` · ${Object.entries(r.byTool).map(([t, c]) => `${t} ${c.correct}/${c.cases}`).join(', ')}` : '') +
      ` · measured with ${r.strategy}${r.budgetTokens ? ` at ${r.budgetTokens} tokens` : ''}`,
  );
}

/**
 * export --query-transform T [--tools S] [--variants N]: the one transformation the exported
 * configuration runs before retrieval (recorded in the manifest, with framework code); nothing is
 * written by a model here, so no generator is needed.
 */
export function readExportTransform(values: TransformValues, docs: readonly Document[], retriever: RetrieverName): ExportTransform | null {
  const t = values['query-transform'];
  if (t === undefined) {
    if (values.tools !== undefined) throw new UsageError('--tools is for --query-transform subquestions or router');
    return null;
  }
  if (!(QUERY_TRANSFORMS as readonly string[]).includes(t) || t.includes(',')) throw new UsageError(`--query-transform: export takes one of ${QUERY_TRANSFORMS.join(', ')} (got "${t}")`);
  if (t === 'none') return null;
  const o = readTransformOptions({ ...values, model: 'none' });
  if (o!.toolSets.length !== 1) throw new UsageError('--tools: export takes one tool set');
  return { transform: t as ExportTransform['transform'], tools: resolveToolSets(o!, docs, retriever)[0]!.tools, variants: o!.variants };
}
