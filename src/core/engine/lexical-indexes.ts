/**
 * The engine's BM25 indexes: one per unit kind × header variant × lexical choice, and × contextual
 * or plain text, built on first use and brought up to date with the corpus; one term dictionary
 * per analyzer shared by all of them (a bundle's postings can be adopted instead of building). A
 * contextual index is rebuilt whole when its kind's contexts change: contexts arrive and are
 * edited anywhere in the corpus, and a rebuild costs little next to writing one context.
 */
import { analyze, WordMemo } from '../index/analyzer';
import { LexicalIndex, lexicalKey, TermDictionary } from '../index/lexical-index';
import type { UnitKind } from '../retrieve/params';
import type { ContextualUnits } from './contextual';
import { variantKey, type EngineCore } from './types';

/** Unit kinds whose units are runs of whole sentences of one document (their BM25 postings can be summed from the sentences'). */
const SENTENCE_RUNS: ReadonlySet<UnitKind> = new Set<UnitKind>(['leaf', 'packed', 'semantic']);

/**
 * Summing transposes the sentence postings (a pass over all of them, ~30 ns a sentence) where
 * analysing costs ~5 µs a sentence of text: fewer new units than the sentences ÷ this are analysed.
 */
const SUM_SHARE = 64;

/** Whitespace that UAX #29 breaks words at on both sides (U+FEFF, a format character that joins what precedes it, is not). */
const BREAKING_SPACE = /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/;
/** A character that UAX #29's WB4 joins to what precedes it. */
const JOINS_BACK = /^[\p{M}\p{Cf}]/u;

/** Whether text[end, next) is whitespace and text at `next` starts a new segment: no word spans it. */
function joinsCleanly(text: string, end: number, next: number): boolean {
  return next > end && BREAKING_SPACE.test(text.slice(end, next)) && !JOINS_BACK.test(text.slice(next, next + 2));
}

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
      const sentences = !contextual && SENTENCE_RUNS.has(kind) && (total - idx.size) * SUM_SHARE >= units.count('sentence') ? this.get('sentence', false) : null;
      // A sentence index adopted from saved postings has a dictionary of its own: its units cannot be summed into this one.
      if (sentences && idx.canSum(sentences)) {
        // Each unit that can be summed from the sentence index is; the others are analysed one by one.
        const from = idx.size;
        const memo = new WordMemo();
        const language = (id: number) => units.corpus.docs[units.span(kind, id).doc]!.language;
        idx.addRuns(
          sentences,
          total - from,
          (i) => (this.summable(kind, from + i) ? units.span(kind, from + i) : null),
          (i) => analyze(this.core.unitText(kind, from + i, false), language(from + i), lexical.analyzer, memo),
        );
      } else this.analyse(idx, kind, idx.size, total, contextual);
    }
    return idx;
  }

  private analyse(idx: LexicalIndex, kind: UnitKind, from: number, to: number, contextual: boolean): void {
    const units = this.core.units;
    const ids = Array.from({ length: to - from }, (_, i) => from + i);
    idx.add(
      ids.map((id) => this.core.unitText(kind, id, contextual)),
      ids.map((id) => units.corpus.docs[units.span(kind, id).doc]!.language),
    );
  }

  /**
   * Whether a unit's BM25 terms are its sentences' terms one after another: its text has no
   * header and is the document's from its first sentence to its last, each join whitespace
   * before a character that starts a word segment (so no word spans a join, UAX #29), and its
   * sentences' texts carry no header either.
   */
  private summable(kind: UnitKind, id: number): boolean {
    const units = this.core.units;
    const u = units.span(kind, id);
    if (this.core.unitText(kind, id, false).length !== u.charEnd - u.charStart) return false;
    const text = units.corpus.docs[u.doc]!.text;
    const sentences = units.corpus.sentences;
    for (let s = u.start; s < u.end; s++) {
      const sentence = sentences[s]!;
      if (this.core.unitText('sentence', s, false).length !== sentence.end - sentence.start) return false;
      if (s + 1 < u.end && !joinsCleanly(text, sentence.end, sentences[s + 1]!.start)) return false;
    }
    return true;
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
