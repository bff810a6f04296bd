/**
 * The one rule for text where it enters the lab (files, datasets, bundles): C0 control
 * characters other than tab, newline and carriage return, and DEL, become a space; a lone
 * UTF-16 surrogate becomes U+FFFD (what TextEncoder writes for it, so the lab, a bundle's
 * UTF-8 files and Postgres hold the same characters). Postgres refuses NUL in text and
 * `\u0000` in jsonb. Every replacement is one UTF-16 unit for one, so character offsets
 * (SQuAD answer spans) stay valid. Hand-written: no library does exactly this, and the
 * rule has to be the same in Node, a worker and the page.
 */

const BAD = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const HAS_BAD = new RegExp(BAD.source);

export interface CleanedText {
  text: string;
  /** How many characters were replaced. */
  replaced: number;
}

/** Replaces control characters and lone surrogates (see above); the same length as the input. */
export function cleanText(text: string): CleanedText {
  if (!HAS_BAD.test(text)) return { text, replaced: 0 };
  let replaced = 0;
  const out = text.replace(BAD, (c) => {
    replaced++;
    const code = c.charCodeAt(0);
    return code >= 0xd800 && code <= 0xdfff ? '\ufffd' : ' ';
  });
  return { text: out, replaced };
}

/** cleanText's string alone. */
export const clean = (text: string): string => cleanText(text).text;

/** Whether the text holds anything cleanText would replace. */
export const needsCleaning = (text: string): boolean => HAS_BAD.test(text);

/** The most levels of nesting accepted in JSON metadata (JSON.stringify recurses, and overflows the stack past ~10k). */
export const MAX_JSON_DEPTH = 64;

/**
 * A JSON value with every string (keys included) cleaned, and a count of replacements.
 * Throws a RangeError naming the depth when nested deeper than MAX_JSON_DEPTH.
 */
export function cleanJson<T>(value: T, counter = { replaced: 0 }, depth = 0): T {
  if (depth > MAX_JSON_DEPTH) throw new RangeError(`nested more than ${MAX_JSON_DEPTH} levels deep`);
  if (typeof value === 'string') {
    const c = cleanText(value);
    counter.replaced += c.replaced;
    return c.text as T;
  }
  if (Array.isArray(value)) return value.map((v) => cleanJson(v, counter, depth + 1)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[cleanJson(k, counter, depth + 1)] = cleanJson(v, counter, depth + 1);
    return out as T;
  }
  return value;
}

/** The note a document carries when its text was cleaned. */
export function replacedNote(n: number): string {
  return `${n} control character${n === 1 ? '' : 's'} or broken UTF-16 surrogate${n === 1 ? '' : 's'} replaced (Postgres and terminals cannot take them)`;
}
