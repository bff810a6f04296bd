/**
 * The right route of each question, measured (routing.ts): every tool of a set retrieves the
 * question alone — its retriever, limited to its document if it has one — with one strategy at
 * one budget, and the tools whose context holds the answer are noted per question.
 */
import type { RetrievalEngine } from '../engine';
import type { EvalQuestion } from '../eval/dataset';
import { judged, scoreQuestion } from '../eval/metrics';
import type { RetrievalParams } from '../retrieve/params';
import type { StrategyName } from '../strategies/registry';
import type { QueryTool } from './tools';

/** found[tool][q]: the answer of question q is in the context the tool alone retrieves. */
export async function foundByTool(engine: RetrievalEngine, questions: readonly EvalQuestion[], tools: readonly QueryTool[], strategy: StrategyName, p: RetrievalParams): Promise<Map<string, boolean[]>> {
  const docIds = engine.corpus.docs.map((d) => d.id);
  const out = new Map<string, boolean[]>();
  for (const t of tools) {
    const tp: RetrievalParams = { ...p, retriever: t.retriever, ...(t.document ? { filters: { ...p.filters, docs: [t.document] } } : {}) };
    if (t.retriever !== 'bm25') await engine.embedQueries(questions.map((q) => q.question));
    const found: boolean[] = [];
    for (const q of questions) {
      const [r] = await engine.search(q.question, [strategy], tp);
      found.push(scoreQuestion(q, judged(r!.blocks, docIds)).answerInContext === 1);
    }
    out.set(t.name, found);
  }
  return out;
}
