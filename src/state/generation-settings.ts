/**
 * The generation settings (which generator, the endpoint, answer length, the compared columns)
 * and how they are kept in this browser's localStorage: the API key only when the user asks for
 * it; a broken or foreign entry is ignored field by field.
 */
import { GENERATOR_MODELS } from '../core/generate/generator-models';
import { DEFAULT_VARIANTS, QUERY_TRANSFORMS, type QueryTransform } from '../core/transform/rewrites';
import { DEFAULT_TOOLS, readTools, type QueryTool } from '../core/transform/tools';
import { COMPARISON_STRATEGY } from '../core/strategies/registry';
import type { LocalModelChoice } from '../worker/generation-protocol';
import type { ColumnId } from '../worker/protocol';

export interface GenerationSettings {
  kind: 'none' | 'local' | 'endpoint';
  local: LocalModelChoice;
  endpoint: { baseUrl: string; model: string; apiKey: string; rememberKey: boolean; contextTokens: number };
  answerTokens: number;
  temperature: number;
  /** Include each block's contextual header in the prompt. */
  headers: boolean;
  /** The strategy whose context answers, and optionally a second one to compare with. */
  columnA: ColumnId;
  columnB: ColumnId | null;
  /** Multi-query: how many variants the generator writes. */
  fusionVariants: number;
  /** The query transformation the Query transformation column runs ('none': the column asks nothing). */
  queryTransform: QueryTransform;
  /** The tools sub-questions and the router choose from (their descriptions are what routes). */
  tools: QueryTool[];
}

const STORAGE_KEY = 'rag-lab:generation';

export function defaultSettings(): GenerationSettings {
  return {
    kind: 'none',
    local: { model: GENERATOR_MODELS.find((m) => !m.testModel)!.id, dtype: GENERATOR_MODELS.find((m) => !m.testModel)!.dtype, device: 'webgpu', source: 'hub' },
    endpoint: { baseUrl: 'http://localhost:11434/v1', model: '', apiKey: '', rememberKey: false, contextTokens: 8192 },
    answerTokens: 512,
    temperature: 0,
    headers: true,
    // The strategy the comparison columns run (sentence windows) answers by default.
    columnA: COMPARISON_STRATEGY.name,
    columnB: null,
    fusionVariants: DEFAULT_VARIANTS,
    queryTransform: 'none',
    tools: structuredClone(DEFAULT_TOOLS),
  };
}

/** Settings saved in this browser; a broken or foreign entry is ignored, field by field. */
export function loadSettings(): GenerationSettings {
  const s = defaultSettings();
  try {
    const raw = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null') as Partial<GenerationSettings> | null;
    if (!raw || typeof raw !== 'object') return s;
    if (raw.kind === 'local' || raw.kind === 'endpoint' || raw.kind === 'none') s.kind = raw.kind;
    if (raw.local && typeof raw.local.model === 'string') s.local = { ...s.local, ...raw.local };
    if (raw.endpoint && typeof raw.endpoint === 'object') s.endpoint = { ...s.endpoint, ...raw.endpoint, apiKey: raw.endpoint.rememberKey ? String(raw.endpoint.apiKey ?? '') : '' };
    for (const k of ['answerTokens', 'temperature'] as const) if (typeof raw[k] === 'number' && Number.isFinite(raw[k])) s[k] = raw[k];
    if (typeof raw.queryTransform === 'string' && (QUERY_TRANSFORMS as readonly string[]).includes(raw.queryTransform)) s.queryTransform = raw.queryTransform;
    // Before query transformations, a number of variants above 0 meant query fusion on.
    else if (typeof raw.fusionVariants === 'number' && raw.fusionVariants > 0) s.queryTransform = 'multiquery';
    if (typeof raw.fusionVariants === 'number' && Number.isInteger(raw.fusionVariants) && raw.fusionVariants >= 1 && raw.fusionVariants <= 10) s.fusionVariants = raw.fusionVariants;
    if (raw.tools !== undefined) {
      try {
        s.tools = readTools(raw.tools);
      } catch {
        // a broken stored tool list: the defaults
      }
    }
    if (typeof raw.headers === 'boolean') s.headers = raw.headers;
    if (typeof raw.columnA === 'string') s.columnA = raw.columnA as ColumnId;
    if (raw.columnB === null || typeof raw.columnB === 'string') s.columnB = raw.columnB as ColumnId | null;
  } catch {
    // storage unavailable or not JSON: defaults
  }
  return s;
}

export function saveSettings(s: GenerationSettings): void {
  // The key is written only when the user asked to remember it.
  const stored = { ...s, endpoint: { ...s.endpoint, apiKey: s.endpoint.rememberKey ? s.endpoint.apiKey : '' } };
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(stored));
  } catch {
    // private mode or quota: the settings live for this page only
  }
}
