/**
 * BM25+ arithmetic shared by the index's searches: one term's contribution (MiniSearch's
 * formula and float steps) and the top k by summed score times matched terms.
 */
import { BM25_PARAMS } from './lexical-params';
import type { Allow, Hit } from './vector-index';

/** One query term's BM25+ contribution to a unit (MiniSearch's formula, BM25_PARAMS). */
export function bm25PlusTerm(idf: number, tf: number, length: number, avgLength: number): number {
  const { k: k1, b, d } = BM25_PARAMS;
  return idf * (d + (tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * length) / avgLength)));
}

/**
 * The k best units of a BM25+ search: summed term scores times the number of distinct query
 * terms matched. Best first; equal scores keep first-seen order, as MiniSearch's stable sort does.
 */
export function bestByMatchedTerms(touched: readonly number[], acc: Float64Array, matched: Uint16Array, k: number, allow?: Allow): Hit[] {
  const top: Hit[] = [];
  for (const doc of touched) {
    if (allow && !allow(doc)) continue;
    const score = acc[doc]! * matched[doc]!;
    if (top.length === k && score <= top[k - 1]!.score) continue;
    let i = top.length < k ? top.length : k - 1;
    while (i > 0 && top[i - 1]!.score < score) i--;
    top.splice(i, 0, { id: doc, score });
    if (top.length > k) top.pop();
  }
  return top;
}
