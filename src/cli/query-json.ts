/** query --json: each strategy's blocks as JSON (its own module: a query loads none of the question-set commands). */
import type { RetrievalEngine, StrategyResult } from '../core/engine';
import { sectionPath } from '../core/structure/corpus';

/** query --json: each strategy's blocks with text, scores, spans and provenance. */
export function queryJson(engine: RetrievalEngine, question: string, results: (StrategyResult & { foundBy?: number[][] })[]): { question: string; results: unknown[] } {
  return {
    question,
    results: results.map((r) => ({
      strategy: r.strategy,
      retriever: r.retriever,
      totalTokens: r.totalTokens,
      notes: r.notes,
      blocks: r.blocks.map((b, i) => {
        const doc = engine.corpus.docs[b.doc]!;
        const s = engine.corpus.sentences[b.sentences.start];
        return {
          rank: i + 1,
          id: b.id,
          doc: { id: doc.id, title: doc.title, fileName: doc.meta.fileName },
          section: s ? sectionPath(doc, s.section) : [],
          ...(s?.page !== undefined ? { page: s.page } : {}),
          start: b.start,
          end: b.end,
          sentences: b.sentences,
          score: b.score,
          tokens: b.tokens,
          ...(b.header ? { header: b.header } : {}),
          ...(b.context ? { context: b.context } : {}),
          text: b.text,
          provenance: b.provenance,
          // With a query transformation: the indices of the queries that found it.
          ...(r.foundBy ? { foundBy: r.foundBy[i] } : {}),
        };
      }),
    })),
  };
}
