/** The page's one lab worker client: made at start, replaced when the worker crashes (controller.ts). */
import type { WorkerClient } from './worker-client';

let client: WorkerClient | null = null;

export function setLabClient(next: WorkerClient): void {
  client = next;
}

/** The worker client, for the corpus map's store and the question set; null before the lab has started. */
export function labWorker(): WorkerClient | null {
  return client;
}

/** The worker client, once the lab has started. */
export function worker(): WorkerClient {
  if (!client) throw new Error('the lab has not started');
  return client;
}
