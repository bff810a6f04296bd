/** rag-lab eval --sweep: every parameter point at every budget, then what is best and by how much. */
import { difference, differenceWords } from '../../core/eval/compare';
import { RANKING_METRICS } from '../../core/eval/metrics';
import { unitKinds } from '../../core/eval/run-eval';
import { defaultSweep, recommend, sweep, sweepSize, type SweepPoint } from '../../core/eval/sweep';
import { lexicalLabel } from '../../core/index/lexical-index';
import { BASELINE, strategyWords } from '../../core/strategies/registry';
import { ANSWER_METRIC_LABELS, ANSWER_RANKING_METRICS, type AnswerRankingMetric } from '../../core/answers/answer-metrics';
import { BLOCK_ORDER_WORDS } from '../../core/answers/block-order';
import { ContextCollector } from '../../core/answers/contexts';
import { recommendByAnswers, type AnswerRecommendation, type AnsweredPoint } from '../../core/answers/recommend';
import type { ContextBlock } from '../../core/types';
import { readAnswerOptions, runCliAnswers } from '../answers-cli';
import { answersTable } from '../answers-table';
import { applyContextual } from '../contextual-cli';
import { retrievalParams } from '../../core/retrieve/params';
import { prepareTransforms, readTransformOptions, resolveToolSets, routingLines, routingReport, transformLabel } from '../transform-cli';
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
  const chosen = list(values.metric, [...RANKING_METRICS, ...ANSWER_RANKING_METRICS], 'metric', [RANKING_METRICS[0]!])[0]!;
  const answerOptions = readAnswerOptions(values);
  const byAnswer = (ANSWER_RANKING_METRICS as readonly string[]).includes(chosen);
  if (byAnswer && !answerOptions) throw new UsageError(`--metric ${chosen} ranks by the answers: add --answers and a generator`);
  const metric = byAnswer ? RANKING_METRICS[0]! : (chosen as (typeof RANKING_METRICS)[number]);
  const answerMetric: AnswerRankingMetric = byAnswer ? (chosen as AnswerRankingMetric) : 'answerF1';
  const transformOptions = readTransformOptions(values);
  const { set, engine, strategies, retrievers } = await prepareEval(values, structure(values), files);
  const collector = answerOptions ? new ContextCollector(engine.corpus) : null;
  const transforms = transformOptions
    ? await prepareTransforms(transformOptions, [...set.questions, ...(set.unanswerable ?? [])].map((q) => q.question), resolveToolSets(transformOptions, engine.corpus.docs, retrievers[0]!))
    : null;
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
          for (const t of transforms?.runs ?? [null]) {
            const bar = new ProgressBar(`sweep ${sweepSize(spec)} points${headers ? ' · headers on' : ''}${contextual ? ' · contextual on' : ''}${lexical.length > 1 ? ` · ${lexicalLabel(l)}` : ''}${t ? ` · ${transformLabel(t)}` : ''}`);
            const base = points.length;
            const got = await sweep(engine, set, spec, {
              onProgress: (p) => bar.update(p.done, p.total),
              ...(collector ? { onBlocks: (point: number, q: number, blocks: ContextBlock[]) => collector.add(base + point, q, blocks) } : {}),
              ...(t ? { transform: t.sweep } : {}),
            });
            points.push(...got);
          }
        }
      }
    }
  });
  const answered = answerOptions && collector ? await runCliAnswers(answerOptions, set, engine.corpus.docs, points, collector.result(points.length)) : null;
  const routing = transforms ? await routingReport(engine, set.questions, transforms.runs, transforms.rewrites, strategies[0]!, retrievalParams({ ...base, retriever: retrievers[0]!, budgetTokens: (budgetList[0] as number | undefined) ?? null })) : [];
  const seconds = (performance.now() - t0) / 1000;
  const embedderName = embedderLabel(engine);
  if (values.json) return printJson(set, engine, points, answered?.results, routing);
  console.log(`sweep on ${set.name}: ${engine.corpus.docs.length} documents, ${set.questions.length} questions, ${points.length} points · embedder ${embedderName} · best by ${byAnswer ? chosen : metric}`);
  if (sourceLineOf(set)) console.log(`questions: ${sourceLineOf(set)}`);
  for (const line of routingLines(routing)) console.log(line);
  if (answered) {
    const answeredPoints: AnsweredPoint[] = answered.results.map((a) => ({ ...points[a.ref.point]!, order: a.ref.order, answer: a }));
    printAnswerRecommendations(recommendByAnswers(answeredPoints, answerMetric));
    if (byAnswer) return console.log(`\n${seconds.toFixed(1)}s`);
  }
  for (const rec of recommend(points, metric)) {
    const b = rec.best;
    // The margin's paired bootstrap interval: is the best really better than the best baseline point?
    const d = rec.baseline && rec.baseline !== b ? difference(b, rec.baseline, metric) : null;
    console.log(`\n== budget ${rec.budgetTokens} tokens: best ${b.strategy} (${b.retriever}; ${pointLabel(b)}) ${metric} ${b.metrics[metric].toFixed(3)}` + (rec.baseline ? `, ${rec.margin! >= 0 ? '+' : ''}${rec.margin!.toFixed(3)} over the best ${strategyWords(BASELINE)} (${rec.baseline.retriever}; ${rec.baseline.metrics[metric].toFixed(3)})` : '') + (d ? `; paired 95 % interval ${differenceWords(d)}` : ''));
    console.log(metricsTable(rec.byStrategy, false, pointLabel, metric, rec.baseline));
  }
  console.log(`\n${seconds.toFixed(1)}s`);
}

/** Per budget: the best point by the answers, and whether judging by the context would have chosen another. */
function printAnswerRecommendations(recs: AnswerRecommendation[]): void {
  for (const rec of recs) {
    const b = rec.best;
    const m = rec.metric;
    const v = (p: AnsweredPoint) => (p.answer.metrics[m] ?? 0).toFixed(3);
    console.log(
      `\n== budget ${rec.budgetTokens ?? 'none'} tokens, by the answers: best ${b.strategy} (${b.retriever}; ${pointLabel(b)}; ${BLOCK_ORDER_WORDS[b.order]}) ${ANSWER_METRIC_LABELS[m]} ${v(b)}` +
        (rec.baseline && rec.baseline !== b ? `, ${rec.margin! >= 0 ? '+' : ''}${rec.margin!.toFixed(3)} over the best ${strategyWords(BASELINE)} (${v(rec.baseline)})` : ''),
    );
    const c = rec.bestByContext;
    console.log(
      rec.differs
        ? `   by answer in context the best is ${c.strategy} (${c.retriever}; ${pointLabel(c)}): ${c.metrics.answerInContext.toFixed(3)} in context, ${ANSWER_METRIC_LABELS[m]} ${v(c)}` + (rec.overContext ? `; best by answers minus it, paired 95 % interval ${differenceWords(rec.overContext)}` : '')
        : '   the best point by answer in context is the same one',
    );
    console.log(answersTable(rec.byStrategy.map((p) => ({ row: p, answer: p.answer })), false));
  }
}
