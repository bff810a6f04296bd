/** rag-lab query "question" <files…|--corpus F> [--json]: each strategy's blocks as a readable table. */
import type { RetrievalEngine, StrategyResult } from '../../core/engine';
import type { RetrievalParams } from '../../core/retrieve/params';
import type { StrategyName } from '../../core/strategies/registry';
import type { TransformCliOptions } from '../transform-cli';
import { unitKinds } from '../../core/eval/run-eval';
import { lexicalLabel } from '../../core/index/lexical-index';
import { RETRIEVERS } from '../../core/retrieve/retrievers';
import { STRATEGIES, strategyTitle } from '../../core/strategies/registry';
import { sectionPath } from '../../core/structure/corpus';
import { embedAll, loadFiles, makeEngine } from '../engine-setup';
import { applyLateChunking } from '../late-chunking-cli';
import { list, retrieval, type Values } from '../options';
import { queryJson } from '../query-json';
import { engineFromSaved } from '../saved-corpus';
import { renderTable } from '../table';
import { visible } from '../terminal';
import { UsageError } from '../usage';

export async function cmdQuery(values: Values, positionals: string[]): Promise<void> {
  const [question, ...files] = positionals;
  if (!question?.trim()) throw new UsageError('query: give the question as the first argument');
  const strategies = list(values.strategies, STRATEGIES, 'strategies', STRATEGIES);
  const [retriever] = list(values.retriever, RETRIEVERS, 'retriever', ['hybrid']);
  const params = { ...retrieval(values, { topK: 10, budget: null }), retriever: retriever! }; // validated before any work
  // Query transformations and situating contexts bring generators, reply caches and hashing: loaded only when asked for.
  const transform = values['query-transform'] !== undefined || values.tools !== undefined || values.variants !== undefined ? await import('../transform-cli') : null;
  const transformOptions = transform ? transform.readTransformOptions(values) : null;
  let engine: RetrievalEngine;
  if (values.corpus) engine = await engineFromSaved(values, values.corpus);
  else {
    if (!files.length) throw new UsageError('query: give files to search, or --corpus FILE');
    engine = await makeEngine(values);
    const docs = await loadFiles(files);
    if (!docs.length) throw new UsageError('query: no file could be loaded');
    engine.addDocuments(docs);
  }
  applyLateChunking(engine, values);
  if (values.contextual || values['sweep-contextual']) await (await import('../contextual-cli')).applyContextual(engine, values);
  // Only what is missing is embedded (nothing, for a saved corpus made with the same model).
  if (retriever !== 'bm25') await embedAll(engine, unitKinds(strategies, params));
  if (transform && transformOptions) return queryTransformed(transform, engine, question, strategies, params, transformOptions, Boolean(values.json));
  const results = await engine.search(question, strategies, params);
  if (values.json) return void process.stdout.write(JSON.stringify(queryJson(engine, question, results)) + '\n');
  printResults(engine, results);
}

/**
 * query --query-transform: the question rewritten (planned, cached, asked), then each
 * transformation's queries — with their tools — and each strategy's blocks, every block saying
 * which queries found it.
 */
async function queryTransformed(transform: typeof import('../transform-cli'), engine: RetrievalEngine, question: string, strategies: StrategyName[], params: RetrievalParams, o: TransformCliOptions, json: boolean): Promise<void> {
  const { prepareTransforms, resolveToolSets, transformLabel } = transform;
  const { searchWithPlan } = await import('../../core/transform/retrieval');
  const { runs } = await prepareTransforms(o, [question], resolveToolSets(o, engine.corpus.docs, params.retriever));
  const out = [];
  for (const t of runs) {
    const plan = t.sweep.plan({ id: 'q', question }, params.retriever);
    if (plan.queries.some((q) => q.retriever !== 'bm25')) await embedAll(engine, unitKinds(strategies, params), true);
    const results = await searchWithPlan(engine, plan, strategies, params, engine.structure.contextual);
    if (json) {
      out.push({ transform: t.transform, ...(t.toolSet ? { tools: t.toolSet.name } : {}), queries: plan.queries, notes: plan.notes, rule: plan.rule, results: queryJson(engine, question, results).results });
      continue;
    }
    console.log(`\n##### ${transformLabel(t)} — ${plan.rule}`);
    plan.queries.forEach((q, i) => console.log(`  q${i} ${q.role}${q.tool ? ` → ${q.tool} (${q.retriever}${q.document ? `, ${engine.corpus.docs.find((d) => d.id === q.document)?.title ?? q.document}` : ''})` : ''}: ${visible(q.text.replace(/\s+/g, ' ').slice(0, 160))}`));
    for (const n of plan.notes) console.log(`  note: ${visible(n)}`);
    printResults(engine, results);
  }
  if (json) process.stdout.write(JSON.stringify({ question, transforms: out }) + '\n');
}

function printResults(engine: RetrievalEngine, results: (StrategyResult & { foundBy?: number[][] })[]): void {
  for (const r of results) {
    console.log(`\n== ${strategyTitle(r.strategy)} · ${r.retriever} · ${r.blocks.length} blocks · ${r.totalTokens} tokens${r.retriever !== 'vector' ? ` · BM25 scored as ${lexicalLabel(engine.structure.lexical)}` : ''}${r.notes.length ? ` · ${visible(r.notes.join('; '))}` : ''}`);
    const rows = r.blocks.map((b, i) => {
      const doc = engine.corpus.docs[b.doc]!;
      const s = engine.corpus.sentences[b.sentences.start]!;
      const where = [doc.title.slice(0, 30), sectionPath(doc, s.section).slice(-1)[0]?.slice(0, 30), s.page !== undefined ? `p.${s.page}` : ''].filter(Boolean).join(' › ');
      const pr = b.provenance;
      const from = [
        ...Object.entries(pr.ranks).map(([k, v]) => `${k} #${v ?? '–'}`),
        pr.fused !== undefined ? `rrf ${pr.fused.toFixed(4)}` : '',
        pr.merged ? `merged ${pr.merged.children}/${pr.merged.of}` : '',
        pr.window?.shrunk ? 'shrunk' : '',
        pr.hits ? `${pr.hits} hits` : '',
        ...(pr.notes ?? []),
        b.context ? `context: ${b.context.text}` : '',
        r.foundBy ? `found by ${r.foundBy[i]!.map((q) => `q${q}`).join(', ')}` : '',
      ].filter(Boolean).join(' · ');
      return [i + 1, Number(b.score.toFixed(4)), b.tokens, where, from, b.text.replace(/\s+/g, ' ').slice(0, 90)];
    });
    console.log(renderTable(['#', 'score', 'tokens', 'where', 'from', 'text'], rows));
  }
}
