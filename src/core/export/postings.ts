import { BM25_PARAMS } from '../index/lexical-index';

/**
 * The lab's BM25 index as plain postings, so any engine can score exactly as the lab
 * does. `tokensOf(id)` gives a unit's terms as LexicalIndex tokenises it (Intl.Segmenter
 * words of the unit's text, header included, in its document's language: unit-words.ts);
 * a unit's length is its number of distinct terms and the mean length is MiniSearch's
 * running mean, kept in the same floating-point steps, so scores agree to the last bit
 * where `ln` does.
 */
export interface Postings {
  /** Terms in first-seen order; per term, its units ascending with their term frequency. */
  terms: Map<string, { units: number[]; tf: number[] }>;
  lengths: Int32Array;
  units: number;
  avgLength: number;
}

export function buildPostings(count: number, tokensOf: (id: number) => string[]): Postings {
  const terms = new Map<string, { units: number[]; tf: number[] }>();
  const lengths = new Int32Array(count);
  let avg = 0;
  for (let id = 0; id < count; id++) {
    const tokens = tokensOf(id);
    // MiniSearch counts distinct tokens before dropping empty ones; it adds each non-empty one.
    lengths[id] = new Set(tokens).size;
    avg = (avg * id + lengths[id]!) / (id + 1);
    const tf = new Map<string, number>();
    for (const t of tokens) if (t) tf.set(t, (tf.get(t) ?? 0) + 1);
    for (const [t, n] of tf) {
      let p = terms.get(t);
      if (!p) terms.set(t, (p = { units: [], tf: [] }));
      p.units.push(id);
      p.tf.push(n);
    }
  }
  return { terms, lengths, units: count, avgLength: avg };
}

/**
 * The lab's BM25 over postings (a reference for engines that take the postings, and for
 * tests): BM25+ per query term occurrence, summed in query order, times the number of
 * distinct query terms matched; ties keep first-seen order.
 */
export function scorePostings(p: Postings, queryTerms: string[], k: number, allow?: (id: number) => boolean): { id: number; score: number }[] {
  const { k: k1, b, d } = BM25_PARAMS;
  const acc = new Map<number, { score: number; matched: Set<string> }>();
  for (const term of queryTerms.filter(Boolean)) {
    const post = p.terms.get(term);
    if (!post) continue;
    const df = post.units.length;
    const idf = Math.log(1 + (p.units - df + 0.5) / (df + 0.5));
    post.units.forEach((u, i) => {
      const tf = post.tf[i]!;
      const s = idf * (d + (tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * p.lengths[u]!) / p.avgLength)));
      const a = acc.get(u);
      if (a) {
        a.score += s;
        a.matched.add(term);
      } else acc.set(u, { score: s, matched: new Set([term]) });
    });
  }
  const out: { id: number; score: number }[] = [];
  for (const [id, a] of acc) if (!allow || allow(id)) out.push({ id, score: a.score * a.matched.size });
  return out.sort((x, y) => y.score - x.score).slice(0, k);
}
