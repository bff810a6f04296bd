/**
 * A transformers.js embedder's changed settings and Matryoshka size as the view URL's `es`
 * parameter (compact JSON, as the endpoint's `ee`). Only edits that differ from the model's
 * preset (or guessed) settings are kept, so a link never names a no-op edit and the plain
 * preset keeps its key. Pure, tested in Node.
 */
import { changedSettings, resolveEmbeddingModel, type EditableSetting, type EmbeddingSettings, type Pooling } from '../core/embed/presets';
import type { ModelChoice } from '../worker/model-protocol';

/** Bounds of what the page and a link accept (an instruction prompt is rarely over 200 characters). */
export const SETTINGS_LIMITS = { prefixChars: 1000, minTokens: 8, maxTokens: 131072 } as const;
export const POOLINGS: readonly Pooling[] = ['mean', 'cls', 'last', 'model'];

export type EmbedderEdits = Pick<ModelChoice, 'settings' | 'dimensions'>;

/** The sizes a model can be run at: its full size first, then its Matryoshka sizes (none when it has none, or its size is unknown). */
export function outputSizes(model: string): number[] {
  const p = resolveEmbeddingModel(model).preset;
  if (!p.matryoshka.length || !p.dim) return [];
  return [...new Set([p.dim, ...p.matryoshka])];
}

/** The edits that differ from the model's own settings, and a size other than its full one; empty when nothing differs. */
export function normaliseEdits(model: string, edits: { settings?: Partial<EmbeddingSettings>; dimensions?: number }): EmbedderEdits {
  const p = resolveEmbeddingModel(model).preset;
  const settings = changedSettings(p, edits.settings ?? {});
  const cut = edits.dimensions !== undefined && edits.dimensions !== p.dim ? edits.dimensions : undefined;
  return { ...(Object.keys(settings).length ? { settings } : {}), ...(cut !== undefined ? { dimensions: cut } : {}) };
}

/** `es`'s value for a choice, or null when it has no edits (or is an endpoint, whose settings are `ee`). */
export function embedderEditsToParam(m: ModelChoice): string | null {
  if (m.endpoint || (!m.settings && !m.dimensions)) return null;
  const s = m.settings ?? {};
  return JSON.stringify({
    ...(s.queryPrefix !== undefined ? { q: s.queryPrefix } : {}),
    ...(s.passagePrefix !== undefined ? { p: s.passagePrefix } : {}),
    ...(s.pooling !== undefined ? { pl: s.pooling } : {}),
    ...(s.maxTokens !== undefined ? { t: s.maxTokens } : {}),
    ...(s.normalize !== undefined ? { n: s.normalize ? 1 : 0 } : {}),
    ...(m.dimensions ? { d: m.dimensions } : {}),
  });
}

/** `es` read back for `model`: its edits, or a sentence saying why the parameter is not usable. */
export function embedderEditsFromParam(raw: string, model: string): EmbedderEdits | string {
  let o: unknown;
  try {
    o = JSON.parse(raw);
  } catch {
    return 'not JSON';
  }
  if (typeof o !== 'object' || o === null || Array.isArray(o)) return 'not embedder settings';
  const { q, p, pl, t, n, d } = o as Record<string, unknown>;
  const text = (v: unknown) => v === undefined || (typeof v === 'string' && v.length <= SETTINGS_LIMITS.prefixChars);
  if (!text(q) || !text(p)) return `a prefix is not text of at most ${SETTINGS_LIMITS.prefixChars} characters`;
  if (pl !== undefined && !POOLINGS.includes(pl as Pooling)) return `pooling "${String(pl)}" is not one of ${POOLINGS.join(', ')}`;
  if (t !== undefined && !(typeof t === 'number' && Number.isInteger(t) && t >= SETTINGS_LIMITS.minTokens && t <= SETTINGS_LIMITS.maxTokens)) {
    return `the maximum length must be a whole number of tokens from ${SETTINGS_LIMITS.minTokens} to ${SETTINGS_LIMITS.maxTokens}`;
  }
  if (n !== undefined && n !== 0 && n !== 1) return 'normalise must be 0 or 1';
  if (d !== undefined) {
    const sizes = outputSizes(model);
    if (!sizes.includes(d as number)) return `${model} cannot be cut to ${String(d)} dimensions${sizes.length ? ` (it was trained for ${sizes.join(', ')})` : ''}`;
  }
  const settings: Partial<Pick<EmbeddingSettings, EditableSetting>> = {
    ...(q !== undefined ? { queryPrefix: q as string } : {}),
    ...(p !== undefined ? { passagePrefix: p as string } : {}),
    ...(pl !== undefined ? { pooling: pl as Pooling } : {}),
    ...(t !== undefined ? { maxTokens: t as number } : {}),
    ...(n !== undefined ? { normalize: n === 1 } : {}),
  };
  return normaliseEdits(model, { settings, ...(d !== undefined ? { dimensions: d as number } : {}) });
}
