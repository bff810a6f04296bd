import { SEGMENT_WINDOW, segments } from '../segment/segmenters';
import { normalizeTerm, words } from '../segment/words';
import type { Document } from '../types';

/**
 * The BM25 terms of every unit (sentence, leaf, chunk), as `words(unitText)` gives them,
 * from one word segmentation of each document instead of one per unit: the three kinds
 * each cover the whole corpus, and Intl.Segmenter is most of the export's time.
 *
 * Word segmentation (UAX #29, and ICU's dictionaries, whose runs end at spaces) never
 * joins across whitespace, so the words of a slice that starts right after whitespace
 * and ends right before it are the document's words inside it — the same property the
 * windowed segmenter relies on when it cuts long text at whitespace. A slice that does
 * not start and end so (Chinese sentences, a cut inside a word), a document with a run
 * long enough for a window to cut it hard, or a unit text that is not "prefix + slice"
 * is segmented on its own, as before.
 */

interface DocWords {
  /** Each word as an index into the vocabulary (a corpus has far fewer distinct words than words). */
  terms: Int32Array;
  /** Start offset of each word, ascending. */
  starts: Int32Array;
}

const SPACE = /\s/;
/** A mark, format character or emoji modifier joins the whitespace before it (UAX #29 WB4: Extend, Format, ZWJ). */
const JOINS_BACK = /[\p{M}\p{Cf}\p{Emoji_Modifier}\u{FF9E}\u{FF9F}]/u;

/** Whether UTF-16 code unit c is JavaScript whitespace (/\s/). */
function isSpace(c: number): boolean {
  if (c < 0x80) return c === 32 || (c >= 9 && c <= 13);
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/** Whether text has a run without whitespace long enough that a segmenter window must cut inside it. */
function hasLongRun(text: string): boolean {
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    if (isSpace(text.charCodeAt(i))) run = 0;
    else if (++run >= SEGMENT_WINDOW / 2) return true;
  }
  return false;
}

export class UnitWords {
  private readonly byDoc = new Map<number, DocWords | null>();
  private readonly prefixes = new Map<string, string[]>();
  private readonly vocabulary: string[] = [];
  private readonly termIds = new Map<string, number>();
  /** Units segmented on their own (not sliced from their document's words). */
  segmentedAlone = 0;

  constructor(private readonly docs: readonly Document[]) {}

  /** Words of `full` (a unit's text), which should be a prefix then docs[doc].text[start, end). */
  of(full: string, doc: number, start: number, end: number): string[] {
    const d = this.docs[doc]!;
    const text = d.text;
    const bodyLength = end - start;
    const prefixLength = full.length - bodyLength;
    const local = prefixLength >= 0 && this.sliceIsLocal(text, start, end) && (prefixLength === 0 || SPACE.test(full[prefixLength - 1]!)) && full.endsWith(text.slice(start, end));
    const dw = local ? this.docWords(doc) : null;
    if (!dw) {
      this.segmentedAlone++;
      return words(full, d.language);
    }
    const out = prefixLength ? [...this.prefixWords(full.slice(0, prefixLength), d.language)] : [];
    for (let i = lowerBound(dw.starts, start); i < dw.starts.length && dw.starts[i]! < end; i++) out.push(this.vocabulary[dw.terms[i]!]!);
    return out;
  }

  /** Whether text[start, end) begins just after whitespace and ends just before it (or at the text's ends). */
  private sliceIsLocal(text: string, start: number, end: number): boolean {
    if (end <= start) return false;
    if (start > 0 && !SPACE.test(text[start - 1]!)) return false;
    if (SPACE.test(text[start]!) || JOINS_BACK.test(String.fromCodePoint(text.codePointAt(start)!))) return false;
    if (end < text.length && !SPACE.test(text[end]!)) return false;
    return !SPACE.test(text[end - 1]!);
  }

  private docWords(doc: number): DocWords | null {
    let dw = this.byDoc.get(doc);
    if (dw !== undefined) return dw;
    const d = this.docs[doc]!;
    dw = null;
    if (!hasLongRun(d.text)) {
      const terms: number[] = [];
      const starts: number[] = [];
      for (const s of segments(d.text, 0, d.text.length, d.language, 'word')) {
        if (!s.isWordLike) continue;
        const term = normalizeTerm(s.segment);
        let id = this.termIds.get(term);
        if (id === undefined) {
          id = this.vocabulary.push(term) - 1;
          this.termIds.set(term, id);
        }
        terms.push(id);
        starts.push(s.index);
      }
      dw = { terms: Int32Array.from(terms), starts: Int32Array.from(starts) };
    }
    this.byDoc.set(doc, dw);
    return dw;
  }

  private prefixWords(prefix: string, language: string): string[] {
    const key = `${language}\u0000${prefix}`;
    let w = this.prefixes.get(key);
    if (!w) this.prefixes.set(key, (w = words(prefix, language)));
    return w;
  }
}

/** The first index whose value is >= x. */
function lowerBound(a: Int32Array, x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
