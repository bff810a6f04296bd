/**
 * Pure helpers for the document view: paragraphs with their offsets, the section around
 * a block, and nested ranges over a stretch of text. No React, no DOM (unit-tested in Node).
 */
import type { Document, Section } from '../../core/types';

export interface Span {
  start: number;
  end: number;
}

/** The text's paragraphs (split on blank lines) as spans of the original text. */
export function paragraphs(text: string): Span[] {
  const out: Span[] = [];
  let at = 0;
  while (at <= text.length) {
    const next = text.indexOf('\n\n', at);
    const end = next < 0 ? text.length : next;
    let start = at;
    while (start < end && text[start] === '\n') start++;
    if (end > start) out.push({ start, end });
    if (next < 0) break;
    at = next + 2;
  }
  return out;
}

/** The deepest section (below the root) holding [start, end), or null when only the whole document does. */
export function enclosingSection(doc: Pick<Document, 'sections'>, start: number, end: number): Section | null {
  let best: Section | null = null;
  for (const s of doc.sections) {
    if (s.level === 0 || s.start > start || s.end < end) continue;
    if (!best || s.level > best.level || (s.level === best.level && s.end - s.start < best.end - best.start)) best = s;
  }
  return best;
}

export type RangeNode = { kind: 'text'; start: number; end: number } | { kind: 'range'; level: number; start: number; end: number; children: RangeNode[] };

/** Sorts, clips to [a, b) and merges overlapping spans. */
function clip(spans: readonly Span[], a: number, b: number): Span[] {
  const out: Span[] = [];
  for (const s of [...spans].sort((x, y) => x.start - y.start)) {
    const start = Math.max(a, s.start);
    const end = Math.min(b, s.end);
    if (end <= start) continue;
    const last = out[out.length - 1];
    if (last && start <= last.end) last.end = Math.max(last.end, end);
    else out.push({ start, end });
  }
  return out;
}

/**
 * The text [a, b) as a tree of nested ranges: levels[0] outermost (a section), then what
 * sits inside it (a block), then inside that (the hit sentences). A range that is not
 * inside its outer level is still shown, at its own level, where it lies.
 */
export function nestRanges(a: number, b: number, levels: readonly (readonly Span[])[], level = 0): RangeNode[] {
  if (b <= a) return [];
  if (level >= levels.length) return [{ kind: 'text', start: a, end: b }];
  const out: RangeNode[] = [];
  let at = a;
  for (const s of clip(levels[level]!, a, b)) {
    if (s.start > at) out.push(...nestRanges(at, s.start, levels, level + 1));
    out.push({ kind: 'range', level, start: s.start, end: s.end, children: nestRanges(s.start, s.end, levels, level + 1) });
    at = s.end;
  }
  if (at < b) out.push(...nestRanges(at, b, levels, level + 1));
  return out;
}

/** Whether any span of any level overlaps [a, b). */
export function overlapsAny(a: number, b: number, levels: readonly (readonly Span[])[]): boolean {
  return levels.some((l) => l.some((s) => s.start < b && s.end > a));
}

/** Sorts spans and joins those separated only by whitespace in text, so consecutive sentences read as one range. */
export function joinAcrossWhitespace(spans: readonly Span[], text: string): Span[] {
  const out: Span[] = [];
  for (const s of [...spans].filter((x) => x.end > x.start).sort((x, y) => x.start - y.start)) {
    const last = out[out.length - 1];
    if (last && (s.start <= last.end || /^\s*$/.test(text.slice(last.end, s.start)))) last.end = Math.max(last.end, s.end);
    else out.push({ start: s.start, end: s.end });
  }
  return out;
}
