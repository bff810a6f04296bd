/** The page's lab worker for state tests: it records each request, and each answers when the test says, with what it says. */
import { setLabClient } from './lab-client';
import type { WorkerClient } from './worker-client';
import type { SearchRequest } from '../worker/protocol';

export interface FakeRequest {
  params: SearchRequest;
  /** Resolves the request (by default a search answer with no columns). */
  answer(result?: unknown): void;
}

/** Sets a new fake worker as the page's lab client; the list fills as the page asks. */
export function fakeLabClient(): FakeRequest[] {
  const asked: FakeRequest[] = [];
  const client = {
    request: (_method: string, params: SearchRequest) => {
      let answer!: (result?: unknown) => void;
      const promise = new Promise((resolve) => (answer = (result = { columns: [], ms: 1 }) => resolve(result)));
      asked.push({ params, answer });
      return { promise };
    },
  };
  setLabClient(client as unknown as WorkerClient);
  return asked;
}
