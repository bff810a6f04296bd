import MiniSearch from 'minisearch';
import { words } from '../segment/words';
import type { Allow, Hit } from './vector-index';

/**
 * BM25 parameters. MiniSearch scores with BM25+ (k1, b and the lower bound δ) and then
 * multiplies a document's summed term scores by the number of query terms it matched;
 * document length is its count of terms. Numbers reported by this project use exactly
 * this variant with these values (MiniSearch's defaults, set here on purpose).
 */
export const BM25_PARAMS = { k: 1.2, b: 0.7, d: 0.5 } as const;

/**
 * BM25 over text units with MiniSearch, tokenised with Intl.Segmenter words (so Chinese
 * is split into words, not kept as whole clauses) and folded to lower case without
 * accents. One index per unit kind (sentences, leaves, chunks).
 */
export class LexicalIndex {
  private readonly mini: MiniSearch<{ id: number; text: string; lang: string }>;
  private count = 0;
  private language = 'en';

  constructor() {
    this.mini = new MiniSearch({
      fields: ['text'],
      idField: 'id',
      storeFields: [],
      // Tokenised with the language of the unit being added (or of the query being run).
      tokenize: (text) => words(text, this.language),
      processTerm: (term) => term,
      searchOptions: { bm25: { ...BM25_PARAMS }, prefix: false, fuzzy: false, combineWith: 'OR' },
    });
  }

  get size(): number {
    return this.count;
  }

  /** Adds units with ids size … size+n-1, each tokenised for its own language. */
  add(texts: string[], languages: string[] | string = 'en'): void {
    texts.forEach((text, i) => {
      this.language = typeof languages === 'string' ? languages : (languages[i] ?? 'en');
      this.mini.add({ id: this.count++, text, lang: this.language });
    });
  }

  search(query: string, k: number, allow?: Allow, language = 'en'): Hit[] {
    this.language = language;
    if (!query.trim()) return [];
    const results = this.mini.search(query, allow ? { filter: (r) => allow(r.id as number) } : {});
    return results.slice(0, k).map((r) => ({ id: r.id as number, score: r.score }));
  }
}
