/**
 * The embedder settings being edited in the picker, before Load: prefixes, pooling, maximum
 * length (as typed) and output size, checked and reduced to what differs from the model's
 * preset (or guessed) settings. Pure, so the picker's rules are tested without a page.
 */
import { describeSettings, resolveEmbeddingModel, type EditableSetting, type EmbeddingPreset, type Pooling } from '../../core/embed/presets';
import { normaliseEdits, outputSizes, SETTINGS_LIMITS, type EmbedderEdits } from '../../state/url-state-embedder';
import type { ModelChoice } from '../../worker/protocol';

export interface SettingsDraft {
  queryPrefix?: string;
  passagePrefix?: string;
  pooling?: Pooling;
  /** As typed; checked by editsOfDraft. */
  maxTokens?: string;
  dimensions?: number;
}

/** What an applied choice's edits look like in the editor. */
export function draftOfChoice(choice: ModelChoice | null): SettingsDraft {
  const s = choice?.settings ?? {};
  return {
    ...(s.queryPrefix !== undefined ? { queryPrefix: s.queryPrefix } : {}),
    ...(s.passagePrefix !== undefined ? { passagePrefix: s.passagePrefix } : {}),
    ...(s.pooling !== undefined ? { pooling: s.pooling } : {}),
    ...(s.maxTokens !== undefined ? { maxTokens: String(s.maxTokens) } : {}),
    ...(choice?.dimensions ? { dimensions: choice.dimensions } : {}),
  };
}

/** The maximum length as typed, or why it cannot be used. */
export function parseMaxTokens(text: string): number | string {
  const t = text.trim();
  const n = Number(t);
  const range = `${SETTINGS_LIMITS.minTokens} to ${SETTINGS_LIMITS.maxTokens.toLocaleString('en-US')}`;
  if (!t || !Number.isInteger(n) || n < SETTINGS_LIMITS.minTokens || n > SETTINGS_LIMITS.maxTokens) return `Maximum length: "${t}" is not a whole number of tokens from ${range}.`;
  return n;
}

/** The edits to apply on Load (only what differs from the model's own settings), or the first problem. */
export function editsOfDraft(model: string, d: SettingsDraft): EmbedderEdits | { problem: string } {
  const tokens = d.maxTokens === undefined ? undefined : parseMaxTokens(d.maxTokens);
  if (typeof tokens === 'string') return { problem: tokens };
  const long = [d.queryPrefix, d.passagePrefix].some((x) => x !== undefined && x.length > SETTINGS_LIMITS.prefixChars);
  if (long) return { problem: `A prefix may be at most ${SETTINGS_LIMITS.prefixChars} characters.` };
  if (d.dimensions !== undefined && !outputSizes(model).includes(d.dimensions)) return { problem: `${model} cannot be cut to ${d.dimensions} dimensions.` };
  const settings = {
    ...(d.queryPrefix !== undefined ? { queryPrefix: d.queryPrefix } : {}),
    ...(d.passagePrefix !== undefined ? { passagePrefix: d.passagePrefix } : {}),
    ...(d.pooling !== undefined ? { pooling: d.pooling } : {}),
    ...(tokens !== undefined ? { maxTokens: tokens } : {}),
  };
  return normaliseEdits(model, { settings, ...(d.dimensions !== undefined ? { dimensions: d.dimensions } : {}) });
}

const NAMES: Record<EditableSetting, string> = { queryPrefix: 'query prefix', passagePrefix: 'passage prefix', pooling: 'pooling', maxTokens: 'maximum length', normalize: 'normalisation' };

export interface SettingsView {
  /** The model's own settings (a preset's, or the guesses). */
  base: EmbeddingPreset;
  /** The settings Load would apply. */
  effective: EmbeddingPreset;
  /** Settings still guessed (not changed by the user). */
  guessed: string[];
  changed: EditableSetting[];
  /** Output size Load would apply (0: unknown until loaded). */
  dims: number;
  problem?: string;
  /** The settings line: "pooling mean · … · 64 dims · changed from the preset: passage prefix". */
  line: string;
}

/** Everything the editor and the settings line show for a model and its draft. */
export function settingsView(model: string, d: SettingsDraft): SettingsView {
  const edits = editsOfDraft(model, d);
  const problem = 'problem' in edits ? edits.problem : undefined;
  const applied = 'problem' in edits ? {} : edits;
  const base = resolveEmbeddingModel(model);
  const { preset: effective, guessed } = resolveEmbeddingModel(model, applied.settings ?? {});
  const changed = Object.keys(applied.settings ?? {}) as EditableSetting[];
  const dims = applied.dimensions ?? base.preset.dim;
  const from = base.guessed.length ? 'the guesses' : 'the preset';
  const parts = [changed.map((k) => NAMES[k]), applied.dimensions ? [`${applied.dimensions} of ${base.preset.dim} dims`] : []].flat();
  const line = `${describeSettings(effective, dims || undefined, guessed)}${parts.length ? ` · changed from ${from}: ${parts.join(', ')}` : ''}`;
  return { base: base.preset, effective, guessed, changed, dims, line, ...(problem ? { problem } : {}) };
}
