import { BM25_PARAMS, LUCENE_BM25_PARAMS, type Bm25Variant } from '../index/lexical-index';

/**
 * The lab's BM25 index as plain postings, so any engine can score exactly as the lab
 * does. `tokensOf(id)` gives a unit's terms as LexicalIndex tokenises it (the analyzer's
 * terms of the unit's text, header included, in its document's language). A unit's
 * length is what its BM25 variant normalises by: for `bm25plus` its number of distinct
 * terms, with MiniSearch's running mean kept in the same floating-point steps; for
 * `lucene` its number of tokens, with the mean total ÷ units as LexicalIndex divides.
 * Scores agree to the last bit where `ln` does.
 */
export interface Postings {
  variant: Bm25Variant;
  /** Terms in first-seen order; per term, its units ascending with their term frequency. */
  terms: Map<string, { units: number[]; tf: number[] }>;
  lengths: Int32Array;
  units: number;
  avgLength: number;
}

export function buildPostings(count: number, tokensOf: (id: number) => string[], variant: Bm25Variant = 'bm25plus'): Postings {
  const terms = new Map<string, { units: number[]; tf: number[] }>();
  const lengths = new Int32Array(count);
  let avg = 0;
  let total = 0;
  for (let id = 0; id < count; id++) {
    const tokens = tokensOf(id);
    if (variant === 'lucene') {
      // LexicalIndex counts every token the analyzer gives.
      lengths[id] = tokens.length;
      total += tokens.length;
    } else {
      // MiniSearch counts distinct tokens before dropping empty ones; it adds each non-empty one.
      lengths[id] = new Set(tokens).size;
      avg = (avg * id + lengths[id]!) / (id + 1);
    }
    const tf = new Map<string, number>();
    for (const t of tokens) if (t) tf.set(t, (tf.get(t) ?? 0) + 1);
    for (const [t, n] of tf) {
      let p = terms.get(t);
      if (!p) terms.set(t, (p = { units: [], tf: [] }));
      p.units.push(id);
      p.tf.push(n);
    }
  }
  if (variant === 'lucene') avg = count ? total / count : 0;
  return { variant, terms, lengths, units: count, avgLength: avg };
}

/** k1, b and δ of a variant as the bundle states them (Lucene's BM25 has no δ: 0). */
export function variantParams(variant: Bm25Variant): { k1: number; b: number; delta: number } {
  return variant === 'lucene' ? { k1: LUCENE_BM25_PARAMS.k, b: LUCENE_BM25_PARAMS.b, delta: 0 } : { k1: BM25_PARAMS.k, b: BM25_PARAMS.b, delta: BM25_PARAMS.d };
}

/**
 * The lab's BM25 over postings (a reference for engines that take the postings, and for
 * tests), summed per query term occurrence in query order. `bm25plus`: BM25+ times the
 * number of distinct query terms matched, ties in first-seen order. `lucene`: the plain
 * sum of idf · tf / (tf + k1 · (1 − b + b · len/avg)), ties to the smaller unit id.
 */
export function scorePostings(p: Postings, queryTerms: string[], k: number, allow?: (id: number) => boolean): { id: number; score: number }[] {
  const { k1, b, delta: d } = variantParams(p.variant);
  const lucene = p.variant === 'lucene';
  const acc = new Map<number, { score: number; matched: Set<string> }>();
  for (const term of queryTerms.filter(Boolean)) {
    const post = p.terms.get(term);
    if (!post) continue;
    const df = post.units.length;
    const idf = Math.log(1 + (p.units - df + 0.5) / (df + 0.5));
    post.units.forEach((u, i) => {
      const tf = post.tf[i]!;
      const norm = k1 * (1 - b + (b * p.lengths[u]!) / p.avgLength);
      const s = lucene ? (idf * tf) / (tf + norm) : idf * (d + (tf * (k1 + 1)) / (tf + norm));
      const a = acc.get(u);
      if (a) {
        a.score += s;
        a.matched.add(term);
      } else acc.set(u, { score: s, matched: new Set([term]) });
    });
  }
  const out: { id: number; score: number }[] = [];
  for (const [id, a] of acc) if (!allow || allow(id)) out.push({ id, score: lucene ? a.score : a.score * a.matched.size });
  return out.sort((x, y) => y.score - x.score || (lucene ? x.id - y.id : 0)).slice(0, k);
}
