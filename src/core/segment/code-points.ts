/**
 * Counting a text's characters by class (script, letter) once per distinct character instead of
 * once per class: the language guess ran ~40 global regular expressions over each document's
 * first 2–4k characters (franc's scripts, then the lab's), ~0.7 ms a document — 3.5 s of a
 * million sentences' build. A text has a few dozen distinct characters; each class's count is
 * the sum of its characters' counts.
 */

/** How often each code point occurs in `s`, as a regular expression reads it: a surrogate pair is one code point, a lone surrogate its own. */
export function codePointCounts(s: string): Map<number, number> {
  const counts = new Map<number, number>();
  // Most characters of most text are ASCII: counted in an array, put in the map at the end.
  const ascii = new Uint32Array(128);
  for (let i = 0; i < s.length; i++) {
    let cp = s.charCodeAt(i);
    if (cp < 128) {
      ascii[cp]!++;
      continue;
    }
    if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < s.length) {
      const low = s.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
        i++;
      }
    }
    counts.set(cp, (counts.get(cp) ?? 0) + 1);
  }
  ascii.forEach((n, cp) => n && counts.set(cp, n));
  return counts;
}

/** Distinct characters remembered before the memo starts over (a CJK corpus has ~10k). */
const MEMO_LIMIT = 1 << 16;

/**
 * Up to 32 character classes, each a regular expression that matches one code point (a class,
 * or a surrogate pair's alternatives): `tally` gives, per class, how many of a text's code points
 * it matches — what `text.match(globalClass).length` gives, for classes that match one whole code
 * point or nothing (trigram-languages.test.ts and language.test.ts check the results against the
 * regular expressions' own counts). Which classes a code point is in is memoised.
 */
export class CodePointClasses {
  private readonly tests: RegExp[];
  private readonly masks = new Map<number, number>();

  constructor(classes: readonly RegExp[]) {
    if (classes.length > 32) throw new Error('CodePointClasses: at most 32 classes');
    // Anchored, without g (no lastIndex), keeping u where the class has it: it tests one code point whole.
    this.tests = classes.map((re) => new RegExp(`^(?:${re.source})$`, re.flags.replace(/[gy]/g, '')));
  }

  /** The classes a code point is in: bit k for class k. */
  mask(cp: number): number {
    let m = this.masks.get(cp);
    if (m === undefined) {
      m = 0;
      const c = String.fromCodePoint(cp);
      for (let k = 0; k < this.tests.length; k++) if (this.tests[k]!.test(c)) m |= 1 << k;
      if (this.masks.size >= MEMO_LIMIT) this.masks.clear();
      this.masks.set(cp, m);
    }
    return m;
  }

  /** Per class, how many of the counted code points it matches. */
  tally(counts: Map<number, number>): number[] {
    const out = new Array<number>(this.tests.length).fill(0);
    for (const [cp, n] of counts) {
      let m = this.mask(cp);
      for (let k = 0; m; k++, m >>>= 1) if (m & 1) out[k] = out[k]! + n;
    }
    return out;
  }
}
