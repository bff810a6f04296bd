import { describe, expect, it } from 'vitest';
import type { ColumnId } from '../worker/protocol';
import { STRATEGIES } from '../core/strategies/registry';
import { categoryColours, CATEGORY_COLOURS, columnColour, TOL_MUTED } from './palette';

const COLUMNS: ColumnId[] = [...STRATEGIES, 'fusion', 'hybrid', 'reranked'];

/** WCAG relative luminance and contrast ratio. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}
function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

describe('column palette', () => {
  it('gives every column its own colour in each theme, from Tol’s muted scheme in the light one', () => {
    for (const scheme of ['light', 'dark'] as const) {
      const colours = COLUMNS.map((c) => columnColour(c, scheme).toLowerCase());
      expect(new Set(colours).size).toBe(COLUMNS.length);
    }
    const tol = new Set(Object.values(TOL_MUTED));
    // Tol's muted has nine colours and nine columns take them; naive and sentence-packed chunks
    // (the two baselines) are greys, semantic chunks take Tol's "light" orange and contextual
    // chunks his "vibrant" blue.
    expect(COLUMNS.filter((c) => c !== 'naive' && c !== 'packed' && c !== 'semantic' && c !== 'contextual').every((c) => tol.has(columnColour(c, 'light') as never))).toBe(true);
    expect(columnColour('semantic', 'light')).toBe('#EE8866');
    expect(columnColour('contextual', 'light')).toBe('#0077BB');
    expect(columnColour('window', 'light')).toBe('#332288');
    expect(columnColour('window', 'dark')).toBe('#8f82e6');
  });

  it('on the dark theme, every column colour stands out from the dark panel (3:1, the non-text minimum)', () => {
    for (const c of COLUMNS) expect(contrast(columnColour(c, 'dark'), '#1a1e24'), c).toBeGreaterThanOrEqual(3);
    // Tol's indigo itself would not: that is why it is lightened there.
    expect(contrast(TOL_MUTED.indigo, '#1a1e24')).toBeLessThan(2);
  });

  it('lightens the same colours for the map’s categories on the dark theme', () => {
    expect(categoryColours('light')).toBe(CATEGORY_COLOURS);
    const dark = categoryColours('dark');
    expect(dark).toHaveLength(CATEGORY_COLOURS.length);
    expect(dark).not.toContain(TOL_MUTED.indigo);
    for (const c of dark) expect(contrast(c, '#1a1e24'), c).toBeGreaterThanOrEqual(3);
  });
});
