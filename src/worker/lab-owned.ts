/**
 * The requests that change what the lab stores (documents, the question set, contexts), refused
 * with 'read-only' in a tab that does not own the lab: another tab does, and only it writes
 * (src/state/lab-owner.ts). The page says why, and offers to use the lab here.
 */
import type { Handler, Handlers } from '../rpc/server';
import type { Lab } from './lab';
import { labError, type LabApi } from './protocol';

/** Every request that writes. A labelled set that brings documents is refused in Lab.evalImport (one without is only read). */
export const LAB_WRITES = ['addFiles', 'addText', 'removeDocument', 'setDocumentContext', 'setDocumentLanguage', 'clear', 'importBundle', 'questionsAdd', 'questionsUpdate', 'questionsDelete', 'contextsPut', 'contextsEdit', 'contextsRecordRun'] as const satisfies readonly (keyof LabApi)[];

/** `handler`, checked when it runs (after the requests queued before it) against whether this tab owns the lab. */
function owned<M extends keyof LabApi>(getLab: () => Promise<Lab>, handler: Handler<LabApi, M>): Handler<LabApi, M> {
  return {
    concurrency: handler.concurrency,
    run: async (params, ctx) => {
      if (!(await getLab()).ownsLab) throw labError('read-only');
      return handler.run(params, ctx);
    },
  };
}

/** `handlers` with each write checked (owned). */
export function ownedWrites(getLab: () => Promise<Lab>, handlers: Handlers<LabApi>): Handlers<LabApi> {
  const out: Record<string, unknown> = { ...handlers };
  for (const method of LAB_WRITES) out[method] = owned(getLab, handlers[method]);
  return out as Handlers<LabApi>;
}
