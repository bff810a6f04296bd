/**
 * Query fusion (LlamaIndex QueryFusionRetriever, mode "reciprocal_rerank"; RAG-Fusion): each
 * query — the question first, then the variants an LLM wrote (../generate/query-variants.ts)
 * — is retrieved for, and the ranked lists are fused with reciprocal rank fusion. Pure: the
 * queries' identity and the fusion.
 */
import type { Candidate } from './candidates';
import { reciprocalRankFusion } from './rrf';

/**
 * Case-, width- and space-insensitive identity of a query, ignoring end punctuation:
 * "What is RRF?" and "what  is rrf" are one query.
 */
export function queryKey(q: string): string {
  return q
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[\s?.!。？！;；,，]+$/u, '');
}

/** [question, ...variants] with repeats (queryKey) and empty ones dropped, question kept first. */
export function uniqueQueries(queries: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const q of queries) {
    const t = q.trim();
    const key = queryKey(t);
    if (!key || seen.has(key)) continue;
    seen.add(key);
    out.push(t);
  }
  return out;
}

/** A unit after query fusion: the best-ranked underlying candidate, scored by RRF. */
export interface FusedCandidate extends Candidate {
  /** The fused RRF score (also in `score`, which windows and merging read). */
  queryFusion: number;
  /** 1-based rank of the unit in each query's list, null where that query missed it; index 0 = the question. */
  variants: (number | null)[];
}

/**
 * Reciprocal rank fusion of one candidate list per query (the question first):
 * score(d) = Σ_q 1 / (k + rank_q(d)), unweighted as in LlamaIndex, k = 60.
 *
 * Rank convention: LlamaIndex's _reciprocal_rerank_fusion enumerates ranks from 0,
 * i.e. 1/(k + rank0); this uses the project's rrf.ts convention (rank from 1, as in
 * Cormack et al. and LangChain), so a unit first for one query scores 1/61. Pass
 * rankFrom 0 for LlamaIndex's numbers. Lists are taken in the order given (best first);
 * units are identified by candidate id (LlamaIndex uses node text). Ties keep
 * first-seen order: the question's list first, then each variant's, then by rank.
 * Each fused unit keeps the fields (ranks, scores, rerank) of its best-ranked
 * appearance, the earlier query winning a tie, with `score` replaced by the fused score.
 */
export function fuseRankings(lists: readonly { query: string; candidates: readonly Candidate[] }[], k = 60, rankFrom: 0 | 1 = 1): FusedCandidate[] {
  if (rankFrom === 0 && k === 0) throw new Error('RRF with ranks from 0 needs k > 0 (the first unit would score 1/0)');
  const fused = reciprocalRankFusion(
    lists.map((l, i) => ({ name: String(i), items: l.candidates.map((c) => ({ id: c.id, score: c.score })), weight: 1 })),
    { c: k, rankFrom },
  );
  // The best-ranked appearance of each unit: scanning ranks outward, earlier lists first.
  const best = new Map<number, Candidate>();
  const depth = Math.max(0, ...lists.map((l) => l.candidates.length));
  for (let r = 0; r < depth; r++) {
    for (const l of lists) {
      const c = l.candidates[r];
      if (c && !best.has(c.id)) best.set(c.id, c);
    }
  }
  return fused.map((f) => {
    const c = best.get(f.id)!;
    return {
      ...c,
      ranks: { ...c.ranks },
      scores: { ...c.scores },
      score: f.score,
      queryFusion: f.score,
      variants: lists.map((_, i) => f.ranks[String(i)] ?? null),
    };
  });
}
