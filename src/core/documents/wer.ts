/** Words for comparison: lower case, punctuation dropped (OCR is judged on words, not on quotes and commas). */
export function werWords(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .split(/\s+/)
    .filter((w) => w);
}

/** Word error rate of `hypothesis` against `reference`: (substitutions + deletions + insertions) / reference words (Levenshtein over words). */
export function wordErrorRate(reference: string, hypothesis: string): number {
  const r = werWords(reference);
  const h = werWords(hypothesis);
  if (!r.length) return h.length ? 1 : 0;
  let prev = Array.from({ length: h.length + 1 }, (_, j) => j);
  for (let i = 1; i <= r.length; i++) {
    const cur = [i];
    for (let j = 1; j <= h.length; j++) cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (r[i - 1] === h[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[h.length]! / r.length;
}
