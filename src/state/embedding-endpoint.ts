/**
 * The embedding endpoint in the page: its settings (kept in this browser's localStorage like
 * the generation endpoint's; the key only when the user asks, and only ever sent to the URL it
 * was typed for), the consent given per endpoint and model, and the consent being asked.
 * The view (URL, saved parameters) carries the endpoint without its key; a link naming an
 * endpoint this browser never agreed to is not loaded until the user confirms.
 */
import { create } from 'zustand';
import type { EmbeddingSendPlan, EndpointChoice } from '../core/embed/endpoint-choice';
import { ENDPOINT_DEFAULTS } from '../core/embed/endpoint-embedder';
import { embeddingsUrl } from '../core/embed/endpoint-reply';
import type { ModelChoice } from '../worker/protocol';

export interface EndpointSettings {
  baseUrl: string;
  model: string;
  apiKey: string;
  rememberKey: boolean;
  /** Sent as `dimensions` when set. */
  dimensions: number | null;
  batchSize: number;
  concurrency: number;
}

const STORAGE_KEY = 'rag-lab:embedding-endpoint';
/** Consents are few (one per endpoint and model tried): the oldest go past this many. */
const MAX_CONSENTS = 50;

export function defaultEndpointSettings(): EndpointSettings {
  return { baseUrl: 'http://localhost:11434/v1', model: '', apiKey: '', rememberKey: false, dimensions: null, batchSize: ENDPOINT_DEFAULTS.batchSize, concurrency: ENDPOINT_DEFAULTS.concurrency };
}

interface Stored {
  settings: EndpointSettings;
  /** "<embeddings URL>|<model>" the user agreed to send text to, in this browser. */
  consented: string[];
}

const int = (v: unknown, min: number, max: number): number | undefined => (typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max ? v : undefined);

/** What this browser keeps; a broken or foreign entry is ignored field by field. */
function readStored(): Stored {
  const s = defaultEndpointSettings();
  const out: Stored = { settings: s, consented: [] };
  try {
    const raw = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null') as { settings?: Partial<EndpointSettings>; consented?: unknown } | null;
    const r = raw?.settings;
    if (r && typeof r === 'object') {
      if (typeof r.baseUrl === 'string') s.baseUrl = r.baseUrl;
      if (typeof r.model === 'string') s.model = r.model;
      s.rememberKey = r.rememberKey === true;
      if (s.rememberKey && typeof r.apiKey === 'string') s.apiKey = r.apiKey;
      s.dimensions = int(r.dimensions, 1, 65536) ?? null;
      s.batchSize = int(r.batchSize, 1, 2048) ?? s.batchSize;
      s.concurrency = int(r.concurrency, 1, 32) ?? s.concurrency;
    }
    if (Array.isArray(raw?.consented)) out.consented = raw.consented.filter((c): c is string => typeof c === 'string').slice(-MAX_CONSENTS);
  } catch {
    // storage unavailable or not JSON: defaults
  }
  return out;
}

function writeStored(st: Stored): void {
  // The key is written only when the user asked to remember it.
  const settings = { ...st.settings, apiKey: st.settings.rememberKey ? st.settings.apiKey : '' };
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify({ settings, consented: st.consented.slice(-MAX_CONSENTS) }));
  } catch {
    // private mode or quota: kept for this page only
  }
}

export interface ConsentRequest {
  choice: ModelChoice;
  /** null while the worker counts the units. */
  plan: EmbeddingSendPlan | null;
  /** Counting failed (the worker restarted, say). */
  error?: string;
}

interface EndpointState {
  settings: EndpointSettings;
  consented: string[];
  /** The endpoint waiting for the user's confirmation, if any. */
  ask: ConsentRequest | null;
}

export const useEmbeddingEndpoint = create<EndpointState>(() => ({ ...readStored(), ask: null }));

export function setEndpointSettings(change: (s: EndpointSettings) => void): void {
  const settings = structuredClone(useEmbeddingEndpoint.getState().settings);
  change(settings);
  useEmbeddingEndpoint.setState({ settings });
  writeStored({ settings, consented: useEmbeddingEndpoint.getState().consented });
}

/** The choice the view keeps (URL, saved parameters): never the key. */
export function endpointChoiceOf(s: EndpointSettings): ModelChoice {
  // Key order as endpointFromParam gives it back, so a view from the URL compares equal.
  const endpoint: EndpointChoice = { baseUrl: s.baseUrl.trim(), model: s.model.trim(), ...(s.dimensions ? { dimensions: s.dimensions } : {}), batchSize: s.batchSize, concurrency: s.concurrency };
  return { model: `${endpoint.model} at ${endpoint.baseUrl}`, dtype: 'fp32', device: 'wasm', source: 'hub', endpoint };
}

/** The settings a view's endpoint choice stands for (the key kept when it is the same URL). */
export function settingsOfChoice(e: EndpointChoice, current: EndpointSettings): EndpointSettings {
  const same = current.baseUrl.trim() === e.baseUrl.trim();
  return { ...current, baseUrl: e.baseUrl, model: e.model, dimensions: e.dimensions ?? null, batchSize: e.batchSize ?? current.batchSize, concurrency: e.concurrency ?? current.concurrency, apiKey: same ? current.apiKey : '' };
}

function consentKey(e: EndpointChoice): string | null {
  try {
    return `${embeddingsUrl(e.baseUrl)}|${e.model.trim()}`;
  } catch {
    return null;
  }
}

export function hasConsent(e: EndpointChoice): boolean {
  const k = consentKey(e);
  return k !== null && useEmbeddingEndpoint.getState().consented.includes(k);
}

export function recordConsent(e: EndpointChoice): void {
  const k = consentKey(e);
  if (!k) return;
  const consented = [...useEmbeddingEndpoint.getState().consented.filter((c) => c !== k), k];
  useEmbeddingEndpoint.setState({ consented, ask: null });
  writeStored({ settings: useEmbeddingEndpoint.getState().settings, consented });
}

/** The choice with the key the user typed, only for the URL it was typed for (a link naming another URL gets none). */
export function withEndpointKey(choice: ModelChoice | null): ModelChoice | null {
  if (!choice?.endpoint) return choice;
  const s = useEmbeddingEndpoint.getState().settings;
  const key = s.apiKey.trim();
  return key && s.baseUrl.trim() === choice.endpoint.baseUrl.trim() ? { ...choice, endpoint: { ...choice.endpoint, apiKey: key } } : choice;
}

/** Asks the user before anything is sent (the picker shows the statement and the confirm). */
export function askConsent(choice: ModelChoice): void {
  if (choice.endpoint) useEmbeddingEndpoint.setState((st) => ({ ask: { choice, plan: null }, settings: settingsOfChoice(choice.endpoint!, st.settings) }));
}

export function consentPlan(plan: EmbeddingSendPlan | null, error?: string): void {
  useEmbeddingEndpoint.setState((st) => (st.ask ? { ask: { ...st.ask, plan, ...(error ? { error } : {}) } } : {}));
}

export function cancelConsent(): void {
  useEmbeddingEndpoint.setState({ ask: null });
}
