/**
 * Cross-origin isolation and the number of ONNX Runtime WASM threads.
 *
 * ONNX Runtime Web runs multi-threaded only when the page (and so its workers) is
 * cross-origin isolated: SharedArrayBuffer needs COOP `same-origin` + COEP `require-corp`
 * (or `credentialless`). Without it ORT silently falls back to one thread — about half the
 * speed — so the app asks here and says why.
 *
 * Where isolation comes from:
 * - `vite` dev and `vite preview`: vite.config.ts sends the two headers (`server.headers`,
 *   `preview.headers`).
 * - Static hosts that cannot set headers (GitHub Pages, …): public/coi-serviceworker.js
 *   (coi-serviceworker 0.1.7, MIT — see public/coi-serviceworker.LICENSE.txt), a service
 *   worker that re-serves every response with COOP/COEP/CORP headers. index.html loads it
 *   with this line, which must be the FIRST script in <head> (before the app's module script):
 *
 *       <script src="./coi-serviceworker.js"></script>
 *
 *   - a classic script, not `type="module"`: it registers itself from
 *     `document.currentScript.src`, which is null in module scripts; Vite leaves it alone (a
 *     warning that it cannot be bundled is expected) and copies public/ to the build root;
 *   - relative `./` path (vite `base: './'`): the worker's scope is the app's folder, so a
 *     sub-path such as https://user.github.io/repo/ works;
 *   - it must come from the same origin (never a CDN) and needs HTTPS or localhost;
 *   - when the page is already isolated (dev/preview headers) it does nothing; otherwise it
 *     registers the worker and reloads the page once on the first visit.
 *   Options can be set before it with `window.coi = { quiet: true, … }` (see its README).
 */

/** Upper bound on ORT WASM threads: beyond 4, small embedding models gain little. */
export const MAX_ONNX_THREADS = 4;

export interface IsolationStatus {
  crossOriginIsolated: boolean;
  /** Value for `env.backends.onnx.wasm.numThreads`. */
  threads: number;
  /** One sentence for the UI / logs. */
  reason: string;
}

/** What the status is computed from; read from the global scope unless given (tests). */
export interface IsolationEnv {
  /** `globalThis.crossOriginIsolated`; undefined when the browser does not report it. */
  crossOriginIsolated: boolean | undefined;
  isSecureContext: boolean | undefined;
  hardwareConcurrency: number | undefined;
  sharedArrayBuffer: boolean;
  /**
   * 'controlled': a service worker controls this page; 'uncontrolled': service workers are
   * available but none controls the page yet; 'unavailable': no service workers (private
   * window, insecure context); 'unknown': cannot tell (inside a worker, or not a browser).
   */
  serviceWorker: 'controlled' | 'uncontrolled' | 'unavailable' | 'unknown';
}

export function readIsolationEnv(scope: typeof globalThis = globalThis): IsolationEnv {
  const g = scope as typeof globalThis & { crossOriginIsolated?: boolean; isSecureContext?: boolean };
  const nav = (g as { navigator?: Navigator }).navigator;
  const inWindow = typeof (g as { document?: unknown }).document !== 'undefined';
  let serviceWorker: IsolationEnv['serviceWorker'] = 'unknown';
  if (inWindow && nav) {
    const sw = (nav as Navigator & { serviceWorker?: ServiceWorkerContainer }).serviceWorker;
    serviceWorker = !sw ? 'unavailable' : sw.controller ? 'controlled' : 'uncontrolled';
  }
  return {
    crossOriginIsolated: typeof g.crossOriginIsolated === 'boolean' ? g.crossOriginIsolated : undefined,
    isSecureContext: typeof g.isSecureContext === 'boolean' ? g.isSecureContext : undefined,
    hardwareConcurrency:
      nav && typeof nav.hardwareConcurrency === 'number' && nav.hardwareConcurrency > 0
        ? nav.hardwareConcurrency
        : undefined,
    sharedArrayBuffer: typeof (g as { SharedArrayBuffer?: unknown }).SharedArrayBuffer === 'function',
    serviceWorker,
  };
}

/** ORT WASM threads: min(4, cores) when isolated, else 1. */
export function onnxThreads(isolated: boolean, hardwareConcurrency: number | undefined): number {
  if (!isolated) return 1;
  const cores = hardwareConcurrency && hardwareConcurrency > 0 ? Math.floor(hardwareConcurrency) : 1;
  return Math.max(1, Math.min(MAX_ONNX_THREADS, cores));
}

/**
 * Whether this page (or worker) is cross-origin isolated, how many ONNX Runtime WASM threads
 * to use, and why. Works in the window and in a dedicated worker (which inherits the page's
 * isolation).
 */
export function isolationStatus(env: IsolationEnv = readIsolationEnv()): IsolationStatus {
  const isolated = env.crossOriginIsolated === true && env.sharedArrayBuffer;
  const threads = onnxThreads(isolated, env.hardwareConcurrency);
  const one = 'ONNX Runtime runs on one thread (about half the speed)';
  if (isolated) {
    const cores = env.hardwareConcurrency ? `${env.hardwareConcurrency} cores` : 'core count unknown';
    return {
      crossOriginIsolated: true,
      threads,
      reason: `Cross-origin isolated: ONNX Runtime uses ${threads} WASM thread${threads === 1 ? '' : 's'} (${cores}).`,
    };
  }
  let why: string;
  if (env.crossOriginIsolated === undefined) {
    why = 'this browser does not report cross-origin isolation';
  } else if (env.crossOriginIsolated && !env.sharedArrayBuffer) {
    why = 'the page is isolated but SharedArrayBuffer is unavailable';
  } else if (env.isSecureContext === false) {
    why = 'not cross-origin isolated, and the page is not served over HTTPS or from localhost, so the isolation service worker cannot run';
  } else if (env.serviceWorker === 'unavailable') {
    why = 'not cross-origin isolated: the server sends no COOP/COEP headers and service workers are unavailable here (private window?)';
  } else if (env.serviceWorker === 'uncontrolled') {
    why = 'not cross-origin isolated yet: coi-serviceworker.js is registering (the page reloads once) — or it is missing from index.html and the server sends no COOP/COEP headers';
  } else if (env.serviceWorker === 'controlled') {
    why = 'not cross-origin isolated although a service worker controls the page: reload the page, or check that coi-serviceworker.js is the first script in index.html';
  } else {
    why = 'not cross-origin isolated (no COOP/COEP headers)';
  }
  return { crossOriginIsolated: false, threads, reason: `${why[0]!.toUpperCase()}${why.slice(1)}; ${one}.` };
}

const RELOADED_KEY = 'rag-lab:coi-reloaded';

/**
 * coi-serviceworker reloads the first visit only if its worker is already active when
 * register() resolves, or if "updatefound" fires after it listens; on a slow machine the
 * install can finish in between, and the page stays un-isolated (ORT on one thread) until the
 * next visit. This reloads once, when a worker is ready but does not control the page yet.
 * Never loops: once per tab session, and never when the page is isolated or controlled.
 */
export function reloadOnceWhenIsolationWorkerIsReady(): void {
  const g = globalThis as typeof globalThis & { crossOriginIsolated?: boolean };
  if (g.crossOriginIsolated !== false || !g.isSecureContext || !('serviceWorker' in navigator)) return;
  void navigator.serviceWorker.ready.then(() => {
    if (navigator.serviceWorker.controller || sessionStorage.getItem(RELOADED_KEY)) return;
    sessionStorage.setItem(RELOADED_KEY, '1');
    location.reload();
  });
}
