/**
 * What of a document the context prompt can hold. A document that fits the generator's
 * budget goes whole. A longer one is cut to a window around the unit, marked "[…]" where text
 * was left out, and the run says so. Windows are placed on a fixed grid (steps of half a
 * window), not centred on each unit: neighbouring units then get the very same window, so the
 * prompt prefix stays shared and an endpoint's prompt cache still applies.
 */
import { truncateToTokens } from '../generate/doc-context';
import type { TokenCounter } from '../segment/tokens';

/** Marks where a window leaves text out. */
export const CUT_MARK = '[…]';

export interface DocumentWindow {
  /** What goes in the prompt: the document, or the window with CUT_MARKs at the cuts. */
  text: string;
  /** The character range of the document it holds. */
  start: number;
  end: number;
  /** Whether text was left out. */
  cut: boolean;
  /** Tokens of `text` in the counter's units. */
  tokens: number;
}

const isSpace = (c: string | undefined) => c === undefined || /\s/u.test(c);

/**
 * The document as the prompt gets it for a unit at [unitStart, unitEnd): whole when it holds at
 * most `maxTokens` tokens, else a window of at most `maxTokens` tokens (marks included) on the
 * grid, cut at word boundaries. `docTokens` saves counting the whole document again.
 */
export function documentWindow(doc: string, unitStart: number, unitEnd: number, maxTokens: number, counter: TokenCounter, docTokens?: number): DocumentWindow {
  const total = docTokens ?? counter.count(doc);
  if (total <= maxTokens) return { text: doc, start: 0, end: doc.length, cut: false, tokens: total };
  const avail = maxTokens - 2 * counter.count(CUT_MARK) - 2;
  if (avail <= 0) return { text: CUT_MARK, start: unitStart, end: unitStart, cut: true, tokens: counter.count(CUT_MARK) };
  // Characters per token of this document, to size the window before counting it.
  const span = Math.max(1, Math.floor((avail * doc.length) / total));
  const stride = Math.max(1, Math.floor(span / 2));
  let a = Math.floor(unitStart / stride) * stride;
  if (unitEnd - a > span) a = unitEnd - span;
  a = Math.max(0, Math.min(a, doc.length - span));
  let b = Math.min(doc.length, a + span);
  // Whole words only: a forward to the next word start (not past the unit), b back to the last word end (not before it).
  if (a > 0 && !isSpace(doc[a - 1])) {
    let x = a;
    while (x < unitStart && !isSpace(doc[x])) x++;
    while (x < unitStart && isSpace(doc[x])) x++;
    if (x <= unitStart) a = x;
  }
  if (b < doc.length && !isSpace(doc[b])) {
    let y = b;
    while (y > a && y > unitEnd && !isSpace(doc[y - 1])) y--;
    if (y > unitEnd) b = y;
  }
  let body = doc.slice(a, b);
  // The estimate from the mean can be off for this stretch: counted, and cut from its end if over.
  const t = truncateToTokens(body, avail, counter);
  if (t.truncated) {
    body = t.text;
    b = a + body.length;
  }
  const text = `${a > 0 ? `${CUT_MARK} ` : ''}${body.trim()}${b < doc.length ? ` ${CUT_MARK}` : ''}`;
  return { text, start: a, end: b, cut: true, tokens: counter.count(text) };
}
