/**
 * Citation markers in a generated answer: "[1]", "[2, 3]", "[1][4]", "[2-4]", "[Source 3]".
 * The answer is cut into text pieces and citation pieces, so the page can link each
 * number to its block; numbers that name no source are kept and flagged, never dropped.
 */

export type AnswerPiece = { kind: 'text'; text: string } | { kind: 'cite'; text: string; sources: number[]; unknown: number[] };

const MARKER = /\[(?:source\s*)?(\d+(?:\s*[-–]\s*\d+)?(?:\s*[,;]\s*(?:source\s*)?\d+(?:\s*[-–]\s*\d+)?)*)\]/gi;

function expand(list: string): number[] {
  const out: number[] = [];
  for (const part of list.split(/[,;]/)) {
    const m = /(\d+)(?:\s*[-–]\s*(\d+))?/.exec(part.replace(/source/i, ''));
    if (!m) continue;
    const a = Number(m[1]);
    const b = m[2] !== undefined ? Number(m[2]) : a;
    // A reversed or absurd range is read as its two ends, not as thousands of sources.
    if (b < a || b - a > 50) out.push(a, b);
    else for (let n = a; n <= b; n++) out.push(n);
  }
  return [...new Set(out)];
}

/** Splits an answer into text and citations; `sourceCount` sources are numbered 1…n. */
export function parseCitations(answer: string, sourceCount: number): AnswerPiece[] {
  const pieces: AnswerPiece[] = [];
  let at = 0;
  for (const m of answer.matchAll(MARKER)) {
    if (m.index! > at) pieces.push({ kind: 'text', text: answer.slice(at, m.index) });
    const all = expand(m[1]!);
    pieces.push({ kind: 'cite', text: m[0], sources: all.filter((n) => n >= 1 && n <= sourceCount), unknown: all.filter((n) => n < 1 || n > sourceCount) });
    at = m.index! + m[0].length;
  }
  if (at < answer.length) pieces.push({ kind: 'text', text: answer.slice(at) });
  return pieces;
}

/** The distinct sources an answer cites, in order of first citation. */
export function citedSources(answer: string, sourceCount: number): number[] {
  const seen: number[] = [];
  for (const p of parseCitations(answer, sourceCount)) if (p.kind === 'cite') for (const n of p.sources) if (!seen.includes(n)) seen.push(n);
  return seen;
}
