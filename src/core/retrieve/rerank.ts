import type { Reranker } from '../embed/reranker';
import type { Candidate } from './candidates';

/**
 * Re-scores the top N candidates with a cross-encoder (over `textOf` each, the text that
 * was embedded, header included, as dsRAG does) and orders them by that score. Candidates
 * past the top N keep their order below every reranked one: scores must share one scale,
 * or merging and windows would compare logits with RRF scores.
 */
export async function rerankCandidates(reranker: Reranker, query: string, cands: Candidate[], topN: number, textOf: (id: number) => string): Promise<Candidate[]> {
  const head = cands.slice(0, Math.max(1, topN));
  const scores = await reranker.score(query, head.map((c) => textOf(c.id)));
  const reranked = head
    .map((c, i) => ({ ...c, score: scores[i]!, rerank: { score: scores[i]!, before: i + 1 } }))
    .sort((a, b) => b.score - a.score);
  const floor = Math.min(...reranked.map((c) => c.score));
  const tail = cands.slice(head.length).map((c, i) => ({ ...c, score: floor - (i + 1) * 1e-6 }));
  return [...reranked, ...tail];
}
