/**
 * Pure helpers for showing blocks: splitting text by the retrieved sentences, numbers,
 * pages and provenance in words. No React, no DOM (unit-tested in Node).
 */
import { isRetriever, RETRIEVER_NAMES } from '../../core/retrieve/retrievers';
import type { Provenance } from '../../core/types';

export interface TextPiece {
  text: string;
  hit: boolean;
}

/**
 * Clips spans to [0, length), sorts them and merges overlapping ones, so the pieces
 * never repeat or drop a character whatever order the spans came in.
 */
export function normalizeSpans(spans: readonly (readonly [number, number])[], length: number): [number, number][] {
  const clipped = spans
    .map(([a, b]) => [Math.max(0, Math.min(length, a)), Math.max(0, Math.min(length, b))] as [number, number])
    .filter(([a, b]) => b > a)
    .sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  const out: [number, number][] = [];
  for (const s of clipped) {
    const last = out[out.length - 1];
    if (last && s[0] <= last[1]) last[1] = Math.max(last[1], s[1]);
    else out.push([s[0], s[1]]);
  }
  return out;
}

/**
 * Splits text into plain and hit pieces. Hits separated only by whitespace (consecutive
 * sentences of a merged leaf) become one piece, so they read as one highlight.
 */
export function splitByHits(text: string, spans: readonly (readonly [number, number])[]): TextPiece[] {
  const norm = normalizeSpans(spans, text.length);
  const joined: [number, number][] = [];
  for (const s of norm) {
    const last = joined[joined.length - 1];
    if (last && /^\s*$/.test(text.slice(last[1], s[0]))) last[1] = s[1];
    else joined.push([s[0], s[1]]);
  }
  const pieces: TextPiece[] = [];
  let at = 0;
  for (const [a, b] of joined) {
    if (a > at) pieces.push({ text: text.slice(at, a), hit: false });
    pieces.push({ text: text.slice(a, b), hit: true });
    at = b;
  }
  if (at < text.length || pieces.length === 0) pieces.push({ text: text.slice(at), hit: false });
  return pieces;
}

/** 3–4 significant digits, without trailing zeros or exponent for everyday magnitudes. */
export function formatScore(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  if (x === 0) return '0';
  const abs = Math.abs(x);
  if (abs >= 1e-4 && abs < 1e6) return String(Number(x.toPrecision(4)));
  return x.toPrecision(3);
}

/** "p. 3", "pp. 3–5", or '' when the document has no pages. */
export function pagesLabel(start?: number, end?: number, unit?: 'slide'): string {
  if (start === undefined && end === undefined) return '';
  const a = start ?? end!;
  const b = end ?? start!;
  if (unit === 'slide') return a === b ? `slide ${a}` : `slides ${a}–${b}`;
  return a === b ? `p. ${a}` : `pp. ${a}–${b}`;
}

/** One list's name as users read it ("BM25", "vector"). */
export function retrieverName(name: string): string {
  return isRetriever(name) ? RETRIEVER_NAMES[name].short : name;
}

/** One formatter for every count: toLocaleString builds a new one per call (about a tenth of a block's render time). */
const COUNT = new Intl.NumberFormat('en');

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${COUNT.format(n)} ${n === 1 ? one : many}`;
}

/**
 * The provenance of a block in words, one phrase per fact:
 * "BM25 #3 · vector #1", "RRF 0.0325", "merged from 3 of 4 children (level 1)", …
 */
export function provenanceParts(p: Provenance, tokens: number): string[] {
  const parts: string[] = [];
  const ranks = Object.entries(p.ranks)
    .sort(([a], [b]) => (a === 'bm25' ? -1 : b === 'bm25' ? 1 : a.localeCompare(b)))
    .map(([name, rank]) => (rank === null ? `${retrieverName(name)} –` : `${retrieverName(name)} #${rank}`))
    // Which analyzer and BM25 variant scored it, beside the BM25 rank ("BM25 #3 (BM25+ · words)").
    .map((part, i) => (i === 0 && p.lexical && p.ranks.bm25 !== undefined ? `${part} (${p.lexical})` : part));
  if (ranks.length) parts.push(ranks.join(' · '));
  if (p.fused !== undefined) parts.push(`RRF ${formatScore(p.fused)}`);
  if (p.merged) parts.push(`merged from ${p.merged.children} of ${p.merged.of} children (level ${p.merged.level})`);
  if (p.window) {
    const { before, after } = p.window;
    parts.push(before === after ? `window ±${before}` : `window −${before}/+${after}`);
    if (p.window.shrunk) parts.push('shrunk to fit the budget');
  }
  if (p.adaptive) {
    const { before, after, stopped } = p.adaptive;
    const why = (r: string) => ({ threshold: 'relevance fell below the threshold', edge: 'section or document edge', budget: 'budget', max: 'max size' })[r] ?? r;
    parts.push(`grew −${before}/+${after} (by ${p.adaptive.relevance === 'vector' ? 'vector similarity' : 'word overlap'})`);
    parts.push(stopped.before === stopped.after ? `stopped: ${why(stopped.before)}` : `stopped before: ${why(stopped.before)}; after: ${why(stopped.after)}`);
  }
  if (p.segment) parts.push(`segment value ${formatScore(p.segment.value)} · ${p.segment.units} leaves, ${p.segment.retrieved} retrieved`);
  if (p.notes) parts.push(...p.notes);
  if (p.hits !== undefined && p.hits > 1) parts.push(`${p.hits} hits merged`);
  if (p.rerank) parts.push(`rerank score ${formatScore(p.rerank.score)} (was #${p.rerank.before})`);
  parts.push(plural(tokens, 'token'));
  return parts;
}

/**
 * The section path as shown: without a first heading that only repeats the document's
 * title (PDFs, Markdown "# Title") when deeper headings follow it.
 */
export function sectionPathLabel(path: readonly string[], docTitle: string): string {
  const rest = path.length > 1 && path[0]!.trim() === docTitle.trim() ? path.slice(1) : path;
  return rest.join(' › ');
}
