/**
 * Contextual retrieval's part of the lab's protocol (joined into LabApi in protocol.ts). The
 * contexts live with the corpus in the worker (the engine's ContextStore) and are stored with it;
 * a run is driven from the page (state/contexts.ts), whose generator (a model in the generation
 * worker, or an endpoint the page calls) writes each context: the worker hands it the calls in
 * batches and keeps what comes back.
 */
import type { ContextRunRecord, ContextUnitKind, UnitContext } from '../core/context/context-store';
import type { ContextCall, ContextPlan } from '../core/context/generate-contexts';
import type { ContextPrompt } from '../core/context/prompt';
import type { RpcMethod } from '../rpc/wire';

/** What the page shows of one kind's contexts. */
export interface ContextsState {
  kind: ContextUnitKind;
  /** Units with a context, those whose contextual vector is made, all units of the kind. */
  written: number;
  embedded: number;
  total: number;
  /** The last runs (newest last), a cancelled or failed one marked. */
  runs: ContextRunRecord[];
}

/** What sizes the calls: the prompt and the generator's context window (tokens are estimated in the worker). */
export interface ContextCallOptions {
  kind: ContextUnitKind;
  prompt: ContextPrompt;
  contextTokens: number;
}

export type ContextApi = {
  contextsState: RpcMethod<{ kind: ContextUnitKind }, ContextsState>;
  contextsPlan: RpcMethod<ContextCallOptions, ContextPlan>;
  /** The next `count` calls for units after unit `after` (−1: from the start) that have no context. */
  contextsCalls: RpcMethod<ContextCallOptions & { after: number; count: number }, ContextCall[]>;
  /** Keeps one context written by the page's run; its vector is made soon after, and it is stored. */
  contextsPut: RpcMethod<{ key: string; context: UnitContext }, null>;
  /** The user's own text for a unit (blank: the context is removed, the unit plain again). */
  contextsEdit: RpcMethod<{ key: string; text: string }, UnitContext | null>;
  contextsRecordRun: RpcMethod<{ run: ContextRunRecord }, null>;
};
