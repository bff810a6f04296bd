/**
 * What this page can use: self-hosted model folders (checked once per model) and a real
 * WebGPU adapter (checked once). Both checks are in the page; the worker checks again.
 */
import { useEffect, useState } from 'react';

const checks = new Map<string, Promise<boolean>>();

/**
 * True when ./models/<id>/config.json is served as JSON. A static server answers a missing
 * file with its index.html, so an OK response alone proves nothing.
 */
export function localModelAvailable(id: string): Promise<boolean> {
  let check = checks.get(id);
  if (!check) {
    check = fetch(new URL(`./models/${id}/config.json`, document.baseURI))
      .then(async (r) => r.ok && (await r.text()).trimStart().startsWith('{'))
      .catch(() => false);
    checks.set(id, check);
  }
  return check;
}

/** Which of `ids` are available locally; empty until the checks answer. */
export function useLocalModels(ids: string[]): Set<string> {
  const [available, setAvailable] = useState<Set<string>>(() => new Set());
  const key = ids.join('|');
  useEffect(() => {
    let live = true;
    void Promise.all(key.split('|').filter(Boolean).map(async (id) => [id, await localModelAvailable(id)] as const)).then((results) => {
      if (live) setAvailable(new Set(results.filter(([, ok]) => ok).map(([id]) => id)));
    });
    return () => {
      live = false;
    };
  }, [key]);
  return available;
}

let adapterCheck: Promise<boolean> | null = null;

function hasWebGpuAdapter(): Promise<boolean> {
  adapterCheck ??= (async () => {
    const gpu = (navigator as unknown as { gpu?: { requestAdapter(): Promise<unknown> } }).gpu;
    if (!gpu) return false;
    try {
      return (await gpu.requestAdapter()) !== null;
    } catch {
      return false;
    }
  })();
  return adapterCheck;
}

/** Whether this browser has a WebGPU adapter: null while checking or not asked (`ask` false). */
export function useWebGpuAdapter(ask: boolean): boolean | null {
  const [has, setHas] = useState<boolean | null>(null);
  useEffect(() => {
    if (!ask) return;
    let live = true;
    void hasWebGpuAdapter().then((ok) => live && setHas(ok));
    return () => {
      live = false;
    };
  }, [ask]);
  return ask ? has : null;
}
