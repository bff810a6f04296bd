/** rag-lab eval --sweep: every parameter point at every budget, then what is best and by how much. */
import { difference, differenceWords } from '../../core/eval/compare';
import { RANKING_METRICS } from '../../core/eval/metrics';
import { unitKinds } from '../../core/eval/run-eval';
import { defaultSweep, recommend, sweep, sweepSize, type SweepPoint } from '../../core/eval/sweep';
import { lexicalLabel } from '../../core/index/lexical-index';
import { BASELINE, strategyWords } from '../../core/strategies/registry';
import { applyContextual } from '../contextual-cli';
import { embedAll } from '../engine-setup';
import { embedderLabel, loadReranker, prepareEval, printJson } from '../eval-setup';
import { checkLateChunking, eachLateVariant } from '../late-chunking-cli';
import { metricsTable, pointLabel } from '../metrics-table';
import { budgets, lexicalChoices, list, retrieval, structure, type Values } from '../options';
import { ProgressBar } from '../progress';
import { sourceLineOf } from '../questions-commands';
import { UsageError } from '../usage';

export async function cmdSweep(values: Values, files: string[] = []): Promise<void> {
  const t0 = performance.now();
  const base = retrieval(values, { topK: 50, budget: 512 }); // validated before any work
  const budgetList = budgets(values, [256, 512]);
  if (budgetList.includes(null)) throw new UsageError('--sweep compares strategies at equal budgets: give --budget TOKENS[,TOKENS…]');
  const metric = list(values.metric, RANKING_METRICS, 'metric', [RANKING_METRICS[0]!])[0]!;
  const { set, engine, strategies, retrievers } = await prepareEval(values, structure(values), files);
  checkLateChunking(engine, values);
  engine.reranker = await loadReranker(values);
  const spec = defaultSweep({ strategies, retrievers: [...retrievers], budgets: budgetList as number[], topK: base.topK, rerank: engine.reranker ? [false, true] : [false] });
  const points: SweepPoint[] = [];
  const lexical = lexicalChoices(values);
  // Contexts first (--contextual or --sweep-contextual); with --sweep-contextual off, then on.
  await applyContextual(engine, values, { switchOn: !values['sweep-contextual'] });
  // With --late-chunking: every variant below with plain vectors, then late-chunked (each point says which).
  await eachLateVariant(engine, values, async () => {
    for (const contextual of values['sweep-contextual'] ? [false, true] : [engine.structure.contextual]) {
      engine.setContextual(contextual);
      for (const headers of values['sweep-headers'] ? [false, true] : [engine.structure.headers.enabled]) {
        engine.setHeaders({ ...engine.structure.headers, enabled: headers });
        if (retrievers.some((r) => r !== 'bm25')) await embedAll(engine, unitKinds(strategies, base), false);
        if (contextual && engine.embedder) for (const kind of unitKinds(strategies, base)) await engine.contexts.embed(kind);
        for (const l of lexical) {
          engine.setLexical(l);
          const bar = new ProgressBar(`sweep ${sweepSize(spec)} points${headers ? ' · headers on' : ''}${contextual ? ' · contextual on' : ''}${lexical.length > 1 ? ` · ${lexicalLabel(l)}` : ''}`);
          points.push(...(await sweep(engine, set, spec, { onProgress: (p) => bar.update(p.done, p.total) })));
        }
      }
    }
  });
  const seconds = (performance.now() - t0) / 1000;
  const embedderName = embedderLabel(engine);
  if (values.json) return printJson(set, engine, points);
  console.log(`sweep on ${set.name}: ${engine.corpus.docs.length} documents, ${set.questions.length} questions, ${points.length} points · embedder ${embedderName} · best by ${metric}`);
  if (sourceLineOf(set)) console.log(`questions: ${sourceLineOf(set)}`);
  for (const rec of recommend(points, metric)) {
    const b = rec.best;
    // The margin's paired bootstrap interval: is the best really better than the best baseline point?
    const d = rec.baseline && rec.baseline !== b ? difference(b, rec.baseline, metric) : null;
    console.log(`\n== budget ${rec.budgetTokens} tokens: best ${b.strategy} (${b.retriever}; ${pointLabel(b)}) ${metric} ${b.metrics[metric].toFixed(3)}` + (rec.baseline ? `, ${rec.margin! >= 0 ? '+' : ''}${rec.margin!.toFixed(3)} over the best ${strategyWords(BASELINE)} (${rec.baseline.retriever}; ${rec.baseline.metrics[metric].toFixed(3)})` : '') + (d ? `; paired 95 % interval ${differenceWords(d)}` : ''));
    console.log(metricsTable(rec.byStrategy, false, pointLabel, metric, rec.baseline));
  }
  console.log(`\n${seconds.toFixed(1)}s`);
}
