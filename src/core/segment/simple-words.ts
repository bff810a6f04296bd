/**
 * Word segments of "simple" text without Intl.Segmenter, exactly as segments() gives them:
 * Latin, Greek and Cyrillic letters, ASCII digits, spaces, line breaks and common punctuation.
 *
 * Why by hand: Intl.Segmenter's word iteration is the lab's slowest step before a search. In
 * Node 20 it costs ~0.5 µs a segment and grows with the string (a 16k-character string: 6× a
 * 512-character one), in Chromium ~50 µs a call; BM25 and naive chunks read every word of the
 * corpus, a million sentences ~40 million segments. On these characters UAX #29's word rules
 * are few — letters, digits and "_" run together (WB5, 8–10, 13a/b), an apostrophe or "’" joins
 * two letters or two digits (WB6/7, 11/12), "·" two letters, "," ";" "." two digits, spaces run
 * together (WB3d), CR LF is one segment (WB3), everything else stands alone — and segments()
 * then splits a word at "." or ":" between letters (ICU versions disagree there), so "." and ":"
 * never join letters here. A run of "_" alone is word-like only when it is longer than one
 * (ICU's rule tags). Everything else (marks, format characters, other scripts, emoji) goes to
 * ICU. Each segmenter checks this against ICU once (simpleWordsAgree): where they differ on the
 * probe, that language is segmented by ICU alone.
 */

/** What a character does in a word: see the rules above. */
export const Cls = {
  /** Not handled here: ICU segments it. */
  None: 0,
  Letter: 1,
  Digit: 2,
  Under: 3,
  Space: 4,
  Lf: 5,
  Cr: 6,
  /** A segment of its own, not word-like (other punctuation and symbols, tab, no-break space). */
  Other: 7,
  /** Joins two letters (MidLetter "·"). */
  JoinLetters: 8,
  /** Joins two digits ("," ";" and "." — between letters segments() splits "." anyway). */
  JoinDigits: 9,
  /** Joins two letters or two digits (Single_Quote, MidNumLet "’" "‘"). */
  JoinBoth: 10,
} as const;
export type Cls = (typeof Cls)[keyof typeof Cls];

/** Classes of U+0000–U+04FF (Latin, Greek, Cyrillic) and of U+1E00–U+1FFF (Latin Extended Additional — Vietnamese — and Greek Extended). */
const TABLE_SIZE = 0x500;
const TABLE = new Uint8Array(TABLE_SIZE);
const EXTENDED_FROM = 0x1e00;
const EXTENDED = new Uint8Array(0x200);
{
  const letter = /^[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}]$/u;
  // Modifier letters are left to ICU (some extend the letter before them).
  const isLetter = (c: number) => {
    const ch = String.fromCharCode(c);
    return /^\p{L}$/u.test(ch) && !/^\p{Lm}$/u.test(ch) && letter.test(ch);
  };
  for (let c = 0; c < TABLE_SIZE; c++) if (isLetter(c)) TABLE[c] = Cls.Letter;
  for (let c = 0; c < EXTENDED.length; c++) if (isLetter(EXTENDED_FROM + c)) EXTENDED[c] = Cls.Letter;
  for (let c = 0x30; c <= 0x39; c++) TABLE[c] = Cls.Digit;
  TABLE[0x5f] = Cls.Under;
  TABLE[0x20] = Cls.Space;
  TABLE[0x0a] = Cls.Lf;
  TABLE[0x0d] = Cls.Cr;
  for (const ch of '\t!"#$%&()*+-/<=>?@[\\]^`{|}~:\u00a0¡¢£¤¥¦§©«¬®°±¶»¿×÷') TABLE[ch.charCodeAt(0)] = Cls.Other;
  TABLE[0xb7] = Cls.JoinLetters;
  for (const ch of ',;.') TABLE[ch.charCodeAt(0)] = Cls.JoinDigits;
  TABLE[0x27] = Cls.JoinBoth;
}

/** The class of the UTF-16 unit at text[i] (a surrogate is None). */
export function cls(text: string, i: number): Cls {
  const c = text.charCodeAt(i);
  if (c < TABLE_SIZE) return TABLE[c] as Cls;
  if (c >= EXTENDED_FROM && c < EXTENDED_FROM + EXTENDED.length) return EXTENDED[c - EXTENDED_FROM] as Cls;
  switch (c) {
    case 0x2018:
    case 0x2019:
      return Cls.JoinBoth;
    case 0x2013:
    case 0x2014:
    case 0x201c:
    case 0x201d:
    case 0x2022:
    case 0x2026:
    case 0x20ac:
      return Cls.Other;
    default:
      return Cls.None;
  }
}

/** Whether every character of text[from, to) is handled here. */
export function isSimple(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (cls(text, i) === Cls.None) return false;
  return true;
}

const isWordChar = (c: Cls) => c === Cls.Letter || c === Cls.Digit || c === Cls.Under;

/**
 * Visits the word segments of simple text[from, to) (isSimple), with offsets counted from `base`:
 * what segments() gives for it, ICU's segments split at stops between letters.
 */
export function visitSimpleWords(text: string, from: number, to: number, base: number, visit: (segment: string, index: number, isWordLike: boolean) => void): void {
  let i = from;
  while (i < to) {
    const c = cls(text, i);
    let j = i + 1;
    if (isWordChar(c)) {
      for (;;) {
        while (j < to && isWordChar(cls(text, j))) j++;
        if (j + 1 >= to) break;
        const mid = cls(text, j);
        const before = cls(text, j - 1);
        const after = cls(text, j + 1);
        if (before === Cls.Letter && after === Cls.Letter && (mid === Cls.JoinLetters || mid === Cls.JoinBoth)) j += 2;
        else if (before === Cls.Digit && after === Cls.Digit && (mid === Cls.JoinDigits || mid === Cls.JoinBoth)) j += 2;
        else break;
      }
      visit(text.slice(i, j), i - base, !(j === i + 1 && c === Cls.Under));
      i = j;
      continue;
    }
    if (c === Cls.Space) while (j < to && text.charCodeAt(j) === 0x20) j++;
    else if (c === Cls.Cr && j < to && text.charCodeAt(j) === 0x0a) j++;
    visit(text.slice(i, j), i - base, false);
    i = j;
  }
}

/**
 * Characters of each class and the contexts the rules look at: every three of them in a row
 * (separated by line feeds, which break on both sides) is the probe each segmenter is checked on.
 */
export const PROBE_CHARS = ['a', '0', '_', "'", '’', '·', '.', ',', ':', ' ', '\n', '\r', '\t', '-'];

/** Every three probe characters in a row, one group a line. */
export function probeText(): string {
  const out: string[] = [];
  for (const a of PROBE_CHARS) for (const b of PROBE_CHARS) for (const c of PROBE_CHARS) out.push(a + b + c);
  return out.join('\n');
}
