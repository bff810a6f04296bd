/** rag-lab eval --data PATH | --questions SET: metrics per strategy and retriever on a labelled set. */
import { evaluate, unitKinds, type EvalRow } from '../../core/eval/run-eval';
import { lexicalLabel } from '../../core/index/lexical-index';
import { ContextCollector } from '../../core/answers/contexts';
import { readAnswerOptions, runCliAnswers } from '../answers-cli';
import { answersTable } from '../answers-table';
import { applyContextual } from '../contextual-cli';
import { retrievalParams } from '../../core/retrieve/params';
import { prepareTransforms, readTransformOptions, resolveToolSets, routingLines, routingReport, transformLabel } from '../transform-cli';
import { embedAll } from '../engine-setup';
import { embedderLabel, prepareEval, printJson } from '../eval-setup';
import { checkLateChunking, eachLateVariant, lateDifferenceLines } from '../late-chunking-cli';
import { metricsTable, pointLabel } from '../metrics-table';
import { budgets, lexicalChoices, retrieval, structure, type Values } from '../options';
import { ProgressBar } from '../progress';
import { sourceLineOf } from '../questions-commands';
import { cmdSweep } from './sweep-command';

export async function cmdEval(values: Values, files: string[] = []): Promise<void> {
  if (values.sweep) return cmdSweep(values, files);
  const t0 = performance.now();
  const params = retrieval(values, { topK: 50, budget: 512 }); // validated before any work
  const budgetList = budgets(values, [512]);
  const answerOptions = readAnswerOptions(values);
  const transformOptions = readTransformOptions(values);
  const { set, engine, strategies, retrievers } = await prepareEval(values, structure(values), files);
  // With --query-transform: every question's rewrites first (planned, printed, cached), then one row set per transformation.
  const transforms = transformOptions
    ? await prepareTransforms(transformOptions, [...set.questions, ...(set.unanswerable ?? [])].map((q) => q.question), resolveToolSets(transformOptions, engine.corpus.docs, retrievers[0]!))
    : null;
  // With --answers: what every row handed over for every question (unanswerable ones too).
  const collector = answerOptions ? new ContextCollector(engine.corpus) : null;
  checkLateChunking(engine, values);
  await applyContextual(engine, values);
  const rows: EvalRow[] = [];
  const lexical = lexicalChoices(values);
  // With --late-chunking: plain vectors, then late-chunked ones (each row says which).
  await eachLateVariant(engine, values, async () => {
    if (retrievers.some((r) => r !== 'bm25')) await embedAll(engine, unitKinds(strategies, params), false);
    for (const budgetTokens of budgetList) {
      for (const retriever of retrievers) {
        // The lexical model only matters where BM25 retrieves.
        for (const l of retriever === 'vector' ? [lexical[0]!] : lexical) {
          engine.setLexical(l);
          for (const t of transforms?.runs ?? [null]) {
            const bar = new ProgressBar(`eval ${retriever}${retriever !== 'vector' && lexical.length > 1 ? ` (${lexicalLabel(l)})` : ''}${budgetList.length > 1 ? ` @${budgetTokens}` : ''}${t ? ` · ${transformLabel(t)}` : ''}`);
            const base = rows.length;
            const got = await evaluate(engine, set, strategies, { ...params, retriever, budgetTokens }, (p) => bar.update(p.done, p.total), collector ? (row, q, blocks) => collector.add(base + row, q, blocks) : undefined, t?.sweep);
            rows.push(...got);
          }
        }
      }
    }
  });
  const answered = answerOptions && collector ? await runCliAnswers(answerOptions, set, engine.corpus.docs, rows, collector.result(rows.length)) : null;
  const routing = transforms ? await routingReport(engine, set.questions, transforms.runs, transforms.rewrites, strategies[0]!, retrievalParams({ ...params, retriever: retrievers[0]!, budgetTokens: budgetList[0] ?? null })) : [];
  const seconds = (performance.now() - t0) / 1000;
  const embedderName = embedderLabel(engine);
  if (values.json) return printJson(set, engine, rows, answered?.results, routing);
  const c = engine.corpus;
  console.log(`dataset ${set.name}: ${c.docs.length} documents, ${c.sentences.length} sentences, ${set.questions.length} questions${set.skipped.length ? ` (${set.skipped.length} rows skipped)` : ''}`);
  if (sourceLineOf(set)) console.log(`questions: ${sourceLineOf(set)}`);
  console.log(`embedder ${embedderName} · tokens counted with ${c.tokenizer} · budget ${budgetList.map((b) => b ?? 'none').join(', ')} tokens · top-k ${params.topK}`);
  const late = values['late-chunking'] ? lateDifferenceLines(rows) : [];
  console.log(metricsTable(rows, budgetList.length > 1, late.length ? pointLabel : undefined));
  if (late.length) console.log(`\nlate chunking minus plain vectors, answer in context (paired 95 % interval):\n${late.join('\n')}`);
  for (const line of routingLines(routing)) console.log(line);
  if (answered) console.log(`\n${answersTable(answered.results.map((a) => ({ row: rows[a.ref.point]!, answer: a })), budgetList.length > 1)}`);
  console.log(`\n${seconds.toFixed(1)}s`);
}
