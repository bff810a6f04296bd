/**
 * The engine's BM25 indexes: one per unit kind × header variant × lexical choice, built on
 * first use and brought up to date with the corpus; one term dictionary per analyzer shared
 * by all of them (a bundle's postings can be adopted instead of building).
 */
import { LexicalIndex, lexicalKey, TermDictionary } from '../index/lexical-index';
import type { UnitKind } from '../retrieve/params';
import type { EngineCore } from './types';

export class LexicalIndexes {
  private readonly indexes = new Map<string, LexicalIndex>();
  private readonly terms = new Map<string, TermDictionary>();

  constructor(private readonly core: EngineCore) {}

  private key(kind: UnitKind): string {
    return `${this.core.variantKey(kind)}|${lexicalKey(this.core.structure().lexical)}`;
  }

  /** The BM25 index of a unit kind for the current variant and lexical choice, brought up to date. */
  get(kind: UnitKind): LexicalIndex {
    const key = this.key(kind);
    const lexical = this.core.structure().lexical;
    let idx = this.indexes.get(key);
    if (!idx) {
      let terms = this.terms.get(lexical.analyzer);
      if (!terms) this.terms.set(lexical.analyzer, (terms = new TermDictionary()));
      this.indexes.set(key, (idx = new LexicalIndex(lexical, terms)));
    }
    const units = this.core.units;
    const total = units.count(kind);
    if (idx.size < total) {
      const ids = Array.from({ length: total - idx.size }, (_, i) => idx!.size + i);
      idx.add(
        ids.map((id) => this.core.unitText(kind, id)),
        ids.map((id) => units.corpus.docs[units.span(kind, id).doc]!.language),
      );
    }
    return idx;
  }

  /** Puts in an index built elsewhere when it holds every unit of the kind with these lexical parameters. */
  adopt(kind: UnitKind, index: LexicalIndex): boolean {
    const lexical = this.core.structure().lexical;
    if (index.size !== this.core.units.count(kind) || lexicalKey(index.params) !== lexicalKey(lexical)) return false;
    this.indexes.set(this.key(kind), index);
    return true;
  }
}
