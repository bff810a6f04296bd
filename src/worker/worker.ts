/**
 * Entry of the module worker. `onmessage` is set before anything heavy is imported:
 * messages that arrive while a top-level import is still loading would be lost.
 */
import { PROTOCOL_TAG, type Request, type Response } from './protocol';

type Lab = import('./lab').Lab;

const post = (msg: Response) => (self as unknown as Worker).postMessage({ tag: PROTOCOL_TAG, ...msg });
const controllers = new Map<number, AbortController>();
let lab: Promise<Lab> | null = null;
// Requests run one after another (except cancel): the engine is not re-entrant.
let queue: Promise<unknown> = Promise.resolve();

function getLab(): Promise<Lab> {
  lab ??= import('./lab').then(({ Lab }) => new Lab((status) => post({ id: null, type: 'status', status })));
  return lab;
}

self.onmessage = (event: MessageEvent) => {
  const data = event.data as ({ tag?: string } & Request) | undefined;
  if (!data || data.tag !== PROTOCOL_TAG) return; // pdf.js's own messages, or anything else
  const req = data as Request;
  if (req.type === 'cancel') {
    controllers.get(req.target)?.abort();
    post({ id: req.id, type: 'result', result: controllers.has(req.target) });
    return;
  }
  const controller = new AbortController();
  controllers.set(req.id, controller);
  // Searches must not wait behind a long indexing request: they run at once.
  const run = async () => {
    try {
      const l = await getLab();
      const result = await l.handle(req, (progress) => post({ id: req.id, type: 'progress', progress }), controller.signal);
      post({ id: req.id, type: 'result', result });
    } catch (e) {
      post({ id: req.id, type: 'error', message: (e as Error)?.message ?? String(e), cancelled: controller.signal.aborted });
    } finally {
      controllers.delete(req.id);
    }
  };
  // Map requests only read cached projections (UMAP itself runs in slices between requests).
  if (req.type === 'search' || req.type === 'getDocument' || req.type === 'saveParams' || req.type === 'projection' || req.type === 'mapQuery' || req.type === 'mapPoint') void run();
  else queue = queue.then(run);
};

post({ id: null, type: 'ready' });
