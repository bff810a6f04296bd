/** The evaluation lab's question list: filtering, paging, and marking answers in a block's text. Pure. */
export const PAGE_SIZE = 25;

export interface QuestionRow {
  id: string;
  question: string;
  answers: string[];
}

/** Questions whose text, id or answers contain every word of the filter (case- and accent-insensitive). */
export function filterQuestions<Q extends QuestionRow>(questions: readonly Q[], filter: string): Q[] {
  const fold = (s: string) => s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
  const words = fold(filter).split(/\s+/).filter(Boolean);
  if (!words.length) return [...questions];
  return questions.filter((q) => {
    const hay = fold(`${q.question} ${q.id} ${q.answers.join(' ')}`);
    return words.every((w) => hay.includes(w));
  });
}

/** One page (0-based, clamped) of a list, with the page count (≥ 1). */
export function pageOf<T>(items: readonly T[], page: number, size = PAGE_SIZE): { items: T[]; page: number; pages: number } {
  const pages = Math.max(1, Math.ceil(items.length / size));
  const p = Math.min(Math.max(0, Math.floor(page)), pages - 1);
  return { items: items.slice(p * size, (p + 1) * size), page: p, pages };
}

// ---- answers in block text ---------------------------------------------------------------

export interface MarkedPiece {
  text: string;
  /** A retrieved sentence. */
  hit: boolean;
  /** A gold answer string. */
  answer: boolean;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Splits pieces (from splitByHits) further where a gold answer occurs (case-insensitive,
 * any whitespace between words), keeping every character once and in order.
 */
export function markAnswers(pieces: readonly { text: string; hit: boolean }[], answers: readonly string[]): MarkedPiece[] {
  const words = answers.map((a) => a.trim()).filter(Boolean);
  if (!words.length) return pieces.map((p) => ({ ...p, answer: false }));
  const re = new RegExp(
    words
      .sort((a, b) => b.length - a.length)
      .map((a) => a.split(/\s+/).map(escapeRegExp).join('\\s+'))
      .join('|'),
    'giu',
  );
  const out: MarkedPiece[] = [];
  for (const p of pieces) {
    let at = 0;
    for (const m of p.text.matchAll(re)) {
      if (!m[0]) continue;
      const i = m.index ?? 0;
      if (i > at) out.push({ text: p.text.slice(at, i), hit: p.hit, answer: false });
      out.push({ text: m[0], hit: p.hit, answer: true });
      at = i + m[0].length;
    }
    if (at < p.text.length || p.text.length === 0) out.push({ text: p.text.slice(at), hit: p.hit, answer: false });
  }
  return out;
}

