import { DEFAULT_WINDOW, expandWindows, type WindowParams } from '../retrieve/window';
import { cliWhole, defineAxis, defineGroup, defineStrategy } from './types';

/** Sentences kept around each hit, and whether windows stay inside their section (adaptive windows read that too). */
export const WINDOW_PARAMS = defineGroup({
  key: 'window',
  defaults: { ...DEFAULT_WINDOW, bySection: false } as WindowParams & { bySection: boolean },
  fields: [
    { key: 'before', kind: 'int', min: 0, urlMax: 20, url: 'wb', label: 'Window before', slider: { min: 0, max: 10, format: (n) => `${n} sent.` } },
    { key: 'after', kind: 'int', min: 0, urlMax: 20, url: 'wa', label: 'Window after', slider: { min: 0, max: 10, format: (n) => `${n} sent.` } },
    { key: 'bySection', kind: 'flag', url: 'ws', label: 'Windows stay inside their section', check: true },
  ],
  cli: {
    options: { window: { type: 'string' }, 'by-section': { type: 'boolean' } },
    help: [`  --window B,A          sentences before,after a hit (default ${DEFAULT_WINDOW.before},${DEFAULT_WINDOW.after})   --by-section`],
    read(values, d) {
      const raw = typeof values.window === 'string' ? values.window : `${d.before},${d.after}`;
      const [before, after] = raw.split(',').map((x, i) => cliWhole(x, i ? 'window (after)' : 'window (before)'));
      return { before: before ?? d.before, after: after ?? before ?? d.after, bySection: Boolean(values['by-section']) };
    },
  },
  fromReport: (q) =>
    typeof q.before === 'number' && typeof q.after === 'number' ? { before: q.before, after: q.after, bySection: Boolean(q.bySection) } : null,
});

/** Window sizes 0–5 before × 0–5 after (sweeps never bound windows by section). */
export const WINDOWS_AXIS = defineAxis({
  id: 'windows',
  label: 'Window sizes 0–5 × 0–5',
  group: WINDOW_PARAMS,
  grid: () => {
    const out: { before: number; after: number }[] = [];
    for (let b = 0; b <= 5; b++) for (let a = 0; a <= 5; a++) out.push({ before: b, after: a });
    return out;
  },
  current: (w) => ({ before: w.before, after: w.after }),
  apply: (w: { before: number; after: number }) => ({ ...w, bySection: false }),
});

/**
 * Sentence windows (LlamaIndex SentenceWindowNodeParser, Haystack SentenceWindowRetriever):
 * each hit sentence grows to `before`/`after` sentences inside its document (or section);
 * overlapping windows merge; a window that does not fit the budget shrinks around its hit.
 */
export const sentenceWindows = defineStrategy({
  name: 'window',
  label: 'Sentence windows',
  unit: 'sentence',
  blockWords: 'the sentence window',
  colour: '#332288',
  groups: [WINDOW_PARAMS],
  axes: [WINDOWS_AXIS],
  report: (p) => ({ before: p.window.before, after: p.window.after, bySection: p.window.bySection }),
  words(r, style) {
    const { before: b, after: a } = r as { before?: number; after?: number };
    if (b === undefined || a === undefined) return [];
    if (style === 'short') return [b === a ? `±${b}` : `${b} before, ${a} after`];
    return [b === a ? (b === 0 ? 'window ±0 (hit sentences only)' : `window ±${b} sentences`) : `window ${b} before, ${a} after`];
  },
  blocks(ctx, candidates, p) {
    const w = p.window;
    return expandWindows(candidates, w, (i) => ctx.bound(i, w.bySection), ctx.blockCost, p.budgetTokens).map((b) =>
      ctx.block({
        strategy: 'window',
        unit: 'sentence',
        start: b.start,
        end: b.end,
        hits: b.hits,
        score: b.score,
        extra: { window: { before: w.before, after: w.after, shrunk: b.shrunk }, ...(b.hits.length > 1 ? { hits: b.hits.length } : {}) },
      }),
    );
  },
});
