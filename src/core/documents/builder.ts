import type { Document, DocumentMeta, Page, Section } from '../types';
import { guessLanguage } from '../segment/language';
import { cleanJson, cleanText, replacedNote } from '../util/clean-text';
import { canonicalLanguage, ignoredLanguageNote } from '../util/language-tag';

/** A loader's failure for one file: the message is shown to the user as is. */
export class LoaderError extends Error {
  constructor(
    message: string,
    readonly fileName: string,
  ) {
    super(`${fileName}: ${message}`);
    this.name = 'LoaderError';
  }
}

/** Chinese and Japanese characters and their punctuation (East Asian wide, not Hangul). */
const WIDE = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\u3000-\\u303f\\u30fc\\uff01-\\uff60';
/** A soft line break between two of them: removed, as CSS Text 3's segment break rules do, not made a space. */
const WIDE_BREAK = new RegExp(`(?<=[${WIDE}])[^\\S\\n\\r\\u2028\\u2029]*[\\n\\r\\u2028\\u2029]\\s*(?=[${WIDE}])`, 'gu');

/**
 * Thai, Lao, Khmer and Burmese put no space between words, and a space between phrases: a line
 * wrapped between two words of theirs is no space at all (CSS Text 3 removes such a segment
 * break too), while one wrapped at a phrase's space keeps it at the line's end, or loses it —
 * then the break is taken as the space it replaced only when the next line starts a phrase is
 * unknowable, so a break with no space before it goes, one with a space keeps one space.
 */
const PHRASE_SCRIPT = '\\p{Script=Thai}\\p{Script=Lao}\\p{Script=Khmer}\\p{Script=Myanmar}';
const PHRASE_SCRIPT_BREAK = new RegExp(`(?<=[${PHRASE_SCRIPT}]\\p{M}*)[\\n\\r\\u2028\\u2029]\\s*(?=[${PHRASE_SCRIPT}])`, 'gu');

/**
 * Collapses runs of whitespace (including soft line breaks) into single spaces. A line break
 * between two Chinese or Japanese characters goes (wrapped lines of Markdown, HTML or plain
 * text put a space inside a word: 日本の 首都), and one between two Thai, Lao, Khmer or Burmese
 * characters with no space before it (a space there is a phrase boundary, which ends sentences).
 */
export function collapseSpaces(text: string): string {
  // Invisible format characters (zero-width space, word joiner, BOM) join rather than split.
  const joined = text.replace(/[\u200b\u2060\ufeff]/g, '');
  // Both break rules need a line break: without one (a line of plain text, most blocks) their look-behind scans are skipped.
  const kept = LINE_BREAK.test(joined) ? joined.replace(WIDE_BREAK, '').replace(PHRASE_SCRIPT_BREAK, '') : joined;
  // Most blocks have single spaces only: the replace would copy them unchanged (a third of this function's time).
  return (NOT_COLLAPSED.test(kept) ? kept.replace(/[\s\u00a0]+/g, ' ') : kept).trim();
}

/** Whitespace other than a space, or a space before more whitespace: what collapsing changes. */
const NOT_COLLAPSED = /[^\S ]| \s/;

const LINE_BREAK = /[\n\r\u2028\u2029]/;

/**
 * Accumulates a document's plain text block by block and keeps the section tree and
 * page ranges as character offsets. Blocks are separated by a blank line: a newline is
 * a hard sentence boundary downstream, so headings and paragraphs never run together.
 */
export class DocumentBuilder {
  private text = '';
  private readonly sections: Section[] = [{ id: 0, title: '', level: 0, parent: null, start: 0, end: 0 }];
  private readonly open: number[] = [0];
  private readonly pages: Page[] = [];
  private pageStart: number | null = null;
  private firstHeading: string | null = null;
  readonly warnings: string[] = [];
  /** Control characters and lone surrogates replaced so far (util/clean-text.ts): every string goes through clean(). */
  private replaced = 0;

  /**
   * Cleaned (control characters, lone surrogates) and composed to NFC: a decomposed file (macOS
   * names and text, some PDFs and Word files) holds the same words as a composed one, and is
   * stored, detected, split, searched and shown alike. Every offset (sections, pages, OCR spans)
   * is taken on the text after this, so spans stay valid.
   */
  private clean(content: string): string {
    const c = cleanText(content);
    this.replaced += c.replaced;
    return c.text.normalize('NFC');
  }

  private append(block: string): void {
    if (this.text) this.text += '\n\n';
    this.text += block;
  }

  /** A paragraph-like block; whitespace inside is collapsed unless `preformatted`. Returns the span it took in the text, null if it added nothing. */
  block(content: string, preformatted = false): { start: number; end: number } | null {
    const text = this.clean(content);
    const clean = preformatted ? text.replace(/\s+$/g, '').replace(/^\n+/, '') : collapseSpaces(text);
    if (!clean) return null;
    this.append(clean);
    return { start: this.text.length - clean.length, end: this.text.length };
  }

  /**
   * Appends text verbatim (newlines become spaces, so the length is unchanged; not composed to
   * NFC, which changes lengths) and returns its offset: for evaluation sets whose answer offsets
   * index the set's own characters. Such text is still detected, split and searched as its NFC
   * form would be (detection reads NFC, terms are NFKC, answers are compared in NFKC).
   */
  rawBlock(content: string): number {
    if (this.text) this.text += '\n\n';
    const offset = this.text.length;
    const c = cleanText(content);
    this.replaced += c.replaced;
    this.text += c.text.replace(/[\r\n\u2028\u2029]/g, ' ');
    return offset;
  }

  /** Opens a section at `level` (1 = top), closing open sections at that level or deeper. */
  heading(level: number, title: string): void {
    const clean = collapseSpaces(this.clean(title));
    if (!clean) return;
    this.closeSections(level);
    if (this.text) this.text += '\n\n';
    const id = this.sections.length;
    const parent = this.open[this.open.length - 1]!;
    this.sections.push({ id, title: clean, level, parent, start: this.text.length, end: this.text.length });
    this.open.push(id);
    this.text += clean;
    this.firstHeading ??= clean;
  }

  /** Continues the heading just opened (a heading wrapped over two lines in a PDF). */
  extendHeading(more: string): void {
    const id = this.open[this.open.length - 1]!;
    const section = this.sections[id]!;
    const clean = collapseSpaces(this.clean(more));
    if (id === 0 || !clean || this.text.length !== section.start + section.title.length) return;
    if (this.firstHeading === section.title) this.firstHeading += ' ' + clean;
    section.title += ' ' + clean;
    this.text += ' ' + clean;
  }

  private closeSections(level: number): void {
    while (this.open.length > 1 && this.sections[this.open[this.open.length - 1]!]!.level >= level) {
      const id = this.open.pop()!;
      this.sections[id]!.end = this.text.length;
    }
  }

  beginPage(): void {
    this.pageStart = this.text ? this.text.length + 2 : 0;
  }

  endPage(number: number): void {
    const start = Math.min(this.pageStart ?? this.text.length, this.text.length);
    this.pages.push({ number, start, end: this.text.length });
    this.pageStart = null;
  }

  get length(): number {
    return this.text.length;
  }

  get headingTitle(): string | null {
    return this.firstHeading;
  }

  build(fields: { id: string; title?: string | null; language?: string; meta: DocumentMeta; tags?: string[] }): Document {
    this.closeSections(1);
    const root = this.sections[0]!;
    root.end = this.text.length;
    const counter = { replaced: 0 };
    const meta = cleanJson(fields.meta, counter);
    const title = (fields.title && collapseSpaces(this.clean(fields.title))) || this.firstHeading || stripExtension(meta.fileName);
    root.title = title;
    const given = fields.language ? canonicalLanguage(fields.language) : null;
    if (fields.language && !given) this.warnings.push(ignoredLanguageNote(fields.language));
    // The note counts what the text and title lost (metadata repeats the file name: not counted twice).
    const replaced = this.replaced;
    if (replaced) this.warnings.push(replacedNote(replaced));
    // Detected unless given; a guess with no letters to go on is English, and says it is unsure.
    const guess = given ? null : guessLanguage(this.text);
    const language = given || (guess!.by === 'none' ? 'en' : guess!.language);
    return {
      id: this.clean(fields.id),
      title,
      language,
      ...(guess ? { languageInfo: { source: 'detected' as const, confidence: guess.confidence, sure: guess.sure, alternatives: guess.alternatives } } : {}),
      text: this.text,
      sections: this.sections,
      pages: this.pages,
      meta,
      ...(fields.tags ? { tags: cleanJson(fields.tags) } : {}),
      ...(this.warnings.length ? { warnings: [...this.warnings] } : {}),
    };
  }
}

export function stripExtension(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? name;
  return base.replace(/\.[^.]+$/, '') || base;
}

/** FNV-1a over the bytes: a stable id for the same content (duplicate detection). */
export function contentId(bytes: Uint8Array | string): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193 ^ 0x5bd1e995;
  const data = typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes;
  for (let i = 0; i < data.length; i++) {
    h1 = Math.imul(h1 ^ data[i]!, 0x01000193);
    h2 = Math.imul(h2 ^ data[i]!, 0x5bd1e995);
  }
  return (h1 >>> 0).toString(16).padStart(8, '0') + (h2 >>> 0).toString(16).padStart(8, '0');
}
