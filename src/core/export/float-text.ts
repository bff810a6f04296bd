/**
 * A float32 as the shortest decimal text that reads back (strtof, pgvector's vector_in)
 * to the very same float32: what `x.toPrecision(p)` gives for the smallest p whose
 * Math.fround equals x, written in fixed or exponent notation, whichever is shorter.
 *
 * toPrecision costs ~170 ns a call and the search needs several, which at 10^8 vector
 * values is minutes; this finds the same digits with a multiply, a round and a divide per
 * tried precision. Math.fround(n / 10^s) is the float32 of the decimal n·10^-s: the
 * division is one correctly rounded step (n and 10^s are exact doubles), and a decimal of
 * at most 9 digits is never so close to a float32 rounding midpoint that rounding to
 * double first could change the float32 it rounds to.
 */

import type { Utf8Writer } from './bytes';

/** 10^0 … 10^22: the powers of ten a double holds exactly. */
const POW10 = Array.from({ length: 23 }, (_, i) => 10 ** i);

/** The decimal n·10^-s (n > 0, no trailing zero) as text: fixed or exponent notation, the shorter (fixed on a tie). */
function decimal(n: number, s: number): string {
  const digits = String(n);
  const len = digits.length;
  let fixed: string;
  if (s <= 0) fixed = digits + '0'.repeat(-s);
  else if (s >= len) fixed = '0.' + '0'.repeat(s - len) + digits;
  else fixed = digits.slice(0, len - s) + '.' + digits.slice(len - s);
  const exp = len - 1 - s;
  if (exp >= -2 && exp <= len + 1) return fixed; // exponent notation is never shorter here
  const sci = (len > 1 ? digits[0] + '.' + digits.slice(1) : digits) + 'e' + exp;
  return sci.length < fixed.length ? sci : fixed;
}

/** The reference: toPrecision at 1, 2, … 9 digits, the first that reads back to x. */
export function float32TextByPrecision(x: number): string {
  for (let p = 1; p < 9; p++) {
    const t = x.toPrecision(p);
    if (Math.fround(Number(t)) === x) return t;
  }
  return x.toPrecision(9);
}

/** 10^-i as the double nearest it (comparisons only: a float32 is never that close to one). */
const NEG_POW10 = Array.from({ length: 46 }, (_, i) => Number(`1e-${i}`));

/** The result of shortestDigits: |x| = DIGITS · 10^-SCALE. */
let DIGITS = 0;
let SCALE = 0;

/**
 * Sets DIGITS and SCALE to the shortest digits of |x| that read back to x (x a finite,
 * non-zero float32); false where doubles cannot scale it exactly (the reference does it).
 */
function shortestDigits(x: number): boolean {
  const a = x < 0 ? -x : x;
  // 10^k <= a < 10^(k+1), by comparison with a table (Math.log10 and ** cost more than the rest).
  let k = 0;
  if (a < 1) {
    k = -1;
    while (k > -45 && a < NEG_POW10[-k]!) k--;
  } else {
    while (k < 22 && a >= POW10[k + 1]!) k++;
  }
  // p digits scale by 10^(p-1-k): it must stay within the powers a double holds exactly.
  if (k < -14 || k > 21) return false;
  // Most float32 values need 8 or 9 digits: try 8, then fewer while it still reads back.
  let p = 8;
  let n = digitsAt(a, k, 8);
  if (n < 0) {
    p = 9;
    n = digitsAt(a, k, 9);
    if (n < 0) return false;
  } else {
    for (let q = 7; q >= 1; q--) {
      const m = digitsAt(a, k, q);
      if (m < 0) break;
      p = q;
      n = m;
    }
  }
  // n < 2^31 (at most 9 digits, or 10^9 when rounding carried): int32 arithmetic from here.
  n |= 0;
  let scale = p - 1 - k;
  while (n % 10 === 0) {
    n = (n / 10) | 0;
    scale--;
  }
  DIGITS = n;
  SCALE = scale;
  return true;
}

/** `x` must be a float32 value (Math.fround(x) === x), as every Float32Array element is. */
export function float32Text(x: number): string {
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  if (!Number.isFinite(x)) return String(x);
  if (!shortestDigits(x)) return float32TextByPrecision(x);
  const text = decimal(DIGITS, SCALE);
  return x < 0 ? '-' + text : text;
}

/**
 * float32Text(x) written as bytes. Values in [0.001, 1) — nearly all of an embedding's —
 * are written digit by digit without a string; the others as float32Text's text.
 */
export function writeFloat32(out: Utf8Writer, x: number): void {
  if (x === 0 || !Number.isFinite(x) || !shortestDigits(x)) {
    out.ascii(float32Text(x));
    return;
  }
  const n = DIGITS;
  const s = SCALE;
  let len = 1;
  while (len < 10 && n >= POW10[len]!) len++;
  const exp = len - 1 - s;
  // Fixed notation "0.0…digits" is the shorter (or tied) one for exponents -1, -2, and -3 with 2+ digits.
  if (exp >= 0 || exp < -3 || (exp === -3 && len === 1)) {
    out.ascii(float32Text(x));
    return;
  }
  const buf = out.room(s + 3);
  let p = out.offset;
  if (x < 0) buf[p++] = 45; // -
  buf[p++] = 48; // 0
  buf[p++] = 46; // .
  for (let i = len; i < s; i++) buf[p++] = 48;
  p += len;
  for (let v = n, q = p; v > 0; v = (v / 10) | 0) buf[--q] = 48 + (v % 10);
  out.advance(p - out.offset);
}

/** The p significant digits of a (10^k <= a < 10^(k+1)) as an integer, or -1 when they do not read back to a. */
function digitsAt(a: number, k: number, p: number): number {
  const s = p - 1 - k;
  if (s >= 0) {
    const n = Math.round(a * POW10[s]!);
    return Math.fround(n / POW10[s]!) === a ? n : -1;
  }
  const n = Math.round(a / POW10[-s]!);
  return Math.fround(n * POW10[-s]!) === a ? n : -1;
}
