/**
 * The engine's BM25 indexes: one per unit kind × header variant × lexical choice, and × contextual
 * or plain text, built on first use and brought up to date with the corpus; one term dictionary
 * per analyzer shared by all of them (a bundle's postings can be adopted instead of building). A
 * contextual index is rebuilt whole when its kind's contexts change: contexts arrive and are
 * edited anywhere in the corpus, and a rebuild costs little next to writing one context.
 */
import { LexicalIndex, lexicalKey, TermDictionary } from '../index/lexical-index';
import type { UnitKind } from '../retrieve/params';
import type { ContextualUnits } from './contextual';
import { variantKey, type EngineCore } from './types';

export class LexicalIndexes {
  private readonly indexes = new Map<string, LexicalIndex>();
  private readonly terms = new Map<string, TermDictionary>();
  /** The contexts' version each contextual index was built from. */
  private readonly built = new Map<string, number>();

  constructor(
    private readonly core: EngineCore,
    private readonly contexts: ContextualUnits,
  ) {}

  /** Late chunking changes the vectors only: plain and late-chunked vectors share one BM25 index. */
  key(kind: UnitKind, contextual: boolean): string {
    const s = this.core.structure();
    return `${variantKey(kind, s.headers, this.core.embedder?.model, { contextual })}|${lexicalKey(s.lexical)}`;
  }

  /** The BM25 index of a unit kind for the current variant and lexical choice (contextual or not), brought up to date. */
  get(kind: UnitKind, contextualAsked = this.core.structure().contextual): LexicalIndex {
    // Without contexts of this kind the contextual text is the plain text: one index serves both.
    const contextual = contextualAsked && this.contexts.store.count(kind) > 0;
    const key = this.key(kind, contextual);
    const lexical = this.core.structure().lexical;
    let idx = this.indexes.get(key);
    const version = this.contexts.store.version(kind);
    if (idx && contextual && this.built.get(key) !== version) idx = undefined;
    if (!idx) {
      if (contextual) this.built.set(key, version);
      let terms = this.terms.get(lexical.analyzer);
      if (!terms) this.terms.set(lexical.analyzer, (terms = new TermDictionary()));
      this.indexes.set(key, (idx = new LexicalIndex(lexical, terms)));
    }
    const units = this.core.units;
    const total = units.count(kind);
    if (idx.size < total) {
      const ids = Array.from({ length: total - idx.size }, (_, i) => idx!.size + i);
      idx.add(
        ids.map((id) => this.core.unitText(kind, id, contextual)),
        ids.map((id) => units.corpus.docs[units.span(kind, id).doc]!.language),
      );
    }
    return idx;
  }

  /** Puts in an index built elsewhere when it holds every unit of the kind with these lexical parameters. */
  adopt(kind: UnitKind, index: LexicalIndex): boolean {
    const lexical = this.core.structure().lexical;
    if (index.size !== this.core.units.count(kind) || lexicalKey(index.params) !== lexicalKey(lexical)) return false;
    const contextual = this.core.structure().contextual && this.contexts.store.count(kind) > 0;
    const key = this.key(kind, contextual);
    this.indexes.set(key, index);
    if (contextual) this.built.set(key, this.contexts.store.version(kind));
    return true;
  }
}
