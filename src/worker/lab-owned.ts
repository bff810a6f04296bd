/**
 * The requests that change what the lab stores (documents, the question set, contexts), refused
 * with 'read-only' in a tab that does not own the lab: another tab does, and only it writes
 * (src/state/lab-owner.ts). The page says why, and offers to use the lab here.
 */
import type { Handlers } from '../rpc/server';
import type { Lab } from './lab';
import { labError, type LabApi } from './protocol';

/** Every request that writes. A labelled set that brings documents is refused in Lab.evalImport (one without is only read). */
export const LAB_WRITES = ['addFiles', 'addText', 'removeDocument', 'setDocumentContext', 'clear', 'importBundle', 'questionsAdd', 'questionsUpdate', 'questionsDelete', 'contextsPut', 'contextsEdit', 'contextsRecordRun'] as const satisfies readonly (keyof LabApi)[];

/** `handlers` with each write checked, when it runs, against whether this tab owns the lab. */
export function ownedWrites(getLab: () => Promise<Lab>, handlers: Handlers<LabApi>): Handlers<LabApi> {
  const out = { ...handlers };
  for (const method of LAB_WRITES) {
    const h = handlers[method] as Handlers<LabApi>[typeof method];
    out[method] = {
      concurrency: h.concurrency,
      run: (async (params: never, ctx: never) => {
        if (!(await getLab()).ownsLab) throw labError('read-only');
        return (h.run as (p: never, c: never) => unknown)(params, ctx);
      }) as never,
    } as never;
  }
  return out;
}
