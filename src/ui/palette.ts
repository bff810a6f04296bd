/**
 * The page's colours that scripts draw with (the map's canvas, the charts, the column
 * stripes): one colour-blind-safe palette, Paul Tol's "muted" scheme, shared by the columns,
 * the map and the charts. Tol's muted is made for light backgrounds; on the dark theme its two
 * darkest colours (indigo, wine) and the grey are lightened so that they still stand out.
 */
import { useSyncExternalStore } from 'react';
import { strategyOf, type StrategyName } from '../core/strategies/registry';
import type { ColumnId } from '../worker/protocol';

export type Scheme = 'light' | 'dark';

/** Tol's muted colours, in his order. */
export const TOL_MUTED = {
  rose: '#CC6677',
  indigo: '#332288',
  sand: '#DDCC77',
  green: '#117733',
  cyan: '#88CCEE',
  wine: '#882255',
  teal: '#44AA99',
  olive: '#999933',
  purple: '#AA4499',
} as const;

const strategyColour = (name: StrategyName) => strategyOf(name).colour;

/** The strategy columns take the registry's colours (one source); the comparison columns their own. */
const LIGHT: Record<ColumnId, string> = {
  naive: strategyColour('naive'),
  packed: strategyColour('packed'),
  semantic: strategyColour('semantic'),
  sentence: strategyColour('sentence'),
  window: strategyColour('window'),
  automerge: strategyColour('automerge'),
  adaptive: strategyColour('adaptive'),
  rse: strategyColour('rse'),
  'automerge-fill': strategyColour('automerge-fill'),
  contextual: strategyColour('contextual'),
  fusion: TOL_MUTED.cyan,
  hybrid: TOL_MUTED.teal,
  reranked: TOL_MUTED.wine,
};

const DARK: Record<ColumnId, string> = { ...LIGHT, naive: '#b0b0b0', packed: '#d0d0d0', window: '#8f82e6', automerge: '#2f9e55', reranked: '#c0457f' };

/** Each column's colour in a theme: its stripe, its marks on the map and its bars and dots in the charts. */
export function columnColour(id: ColumnId, scheme: Scheme): string {
  return (scheme === 'dark' ? DARK : LIGHT)[id];
}

/** Retrievers in the charts: Okabe–Ito blue, orange and bluish green, readable on both themes. */
export const RETRIEVER_COLOURS = { bm25: '#0072B2', vector: '#E69F00', hybrid: '#009E73' } as const;

/**
 * Categories on the map's base layer (documents, sections, languages): Tol's muted again plus
 * his pale grey, drawn faint under the strategies' marks.
 */
export const CATEGORY_COLOURS = [...Object.values(TOL_MUTED), '#BBBBBB'];
const CATEGORY_DARK = CATEGORY_COLOURS.map((c) => (c === TOL_MUTED.indigo ? DARK.window : c === TOL_MUTED.wine ? DARK.reranked : c === TOL_MUTED.green ? DARK.automerge : c));

/** The category colours in a theme (the dark one lightens the same three as the columns). */
export function categoryColours(scheme: Scheme): readonly string[] {
  return scheme === 'dark' ? CATEGORY_DARK : CATEGORY_COLOURS;
}

const query = () => (typeof window !== 'undefined' && window.matchMedia ? window.matchMedia('(prefers-color-scheme: dark)') : null);

function subscribe(onChange: () => void): () => void {
  const mq = query();
  mq?.addEventListener('change', onChange);
  return () => mq?.removeEventListener('change', onChange);
}

/** The system's colour scheme, followed live. */
export function useScheme(): Scheme {
  return useSyncExternalStore(
    subscribe,
    () => (query()?.matches ? 'dark' : 'light'),
    () => 'light',
  );
}

/** A CSS variable of the page (for canvas drawing, which cannot read CSS). */
export function cssColour(name: string, fallback: string): string {
  if (typeof document === 'undefined') return fallback;
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
}
