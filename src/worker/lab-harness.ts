/**
 * The lab as the page sees it, for Node tests: its handler table served on one end of a
 * MessageChannel (built as src/worker/worker.ts builds it), the page's RPC client on the other,
 * storage in fake-indexeddb. BM25 only unless a test loads a model.
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, expect } from 'vitest';
import { RpcClient } from '../rpc/client';
import { serve } from '../rpc/server';
import type { RpcPort } from '../rpc/wire';
import { Lab } from './lab';
import { labHandlers } from './lab-handlers';
import { LAB_TAG, type InitOptions, type LabApi, type LabEvents, type WorkerStatus } from './protocol';

export const TEST_INIT: InitOptions = { modelsUrl: 'http://127.0.0.1/models/', ortWasm: { mjs: '', wasm: '' }, threads: 1, pdfWorkerUrl: '', voyWasm: '' };

/** A file as the page hands it to the worker. */
export const file = (name: string, text: string) => ({ name, bytes: new TextEncoder().encode(text).buffer as ArrayBuffer });

/**
 * Call once at the top of a test file: `startLab` serves a lab, `freshStorage` gives the next
 * labs an empty IndexedDB; after each test the channels close and the global IndexedDB is restored.
 */
export function labHarness() {
  const g = globalThis as { indexedDB?: unknown };
  const original = g.indexedDB;
  let channels: MessageChannel[] = [];
  afterEach(() => {
    g.indexedDB = original;
    for (const c of channels) {
      c.port1.close();
      c.port2.close();
    }
    channels = [];
  });

  async function startLab(options: Partial<InitOptions> = {}) {
    const channel = new MessageChannel();
    channels.push(channel);
    const statuses: WorkerStatus[] = [];
    const server = serve<LabApi, LabEvents>(channel.port1 as unknown as RpcPort, LAB_TAG, labHandlers(async () => lab));
    const lab = new Lab((s) => server.emit('status', s), (work) => server.serial(work));
    const client = new RpcClient<LabApi, LabEvents>(channel.port2 as unknown as RpcPort, LAB_TAG);
    client.on('status', (s) => statuses.push(s));
    const init = await client.request('init', { options: { ...TEST_INIT, ...options } }).promise;
    /** The last status the page has seen. */
    const latest = () => statuses.at(-1) ?? init.status;
    /** Waits (5 s at most) until the last status shows `what`. */
    const until = async (what: (s: WorkerStatus) => boolean) => {
      for (let i = 0; i < 200 && !what(latest()); i++) await new Promise((r) => setTimeout(r, 25));
      expect(what(latest()), JSON.stringify({ owner: latest().lab, docs: latest().docs.map((d) => d.title) })).toBe(true);
      return latest();
    };
    return { client, init, lab, statuses, latest, until };
  }

  return { startLab, freshStorage: () => void (g.indexedDB = new IDBFactory()) };
}
