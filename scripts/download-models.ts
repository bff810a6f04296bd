/**
 * Downloads the files transformers.js needs to run a model from a self-hosted folder, for
 * STATIC deployments (GitHub Pages, any plain file server) that should not depend on the
 * Hugging Face hub at run time:
 *
 *   npx tsx scripts/download-models.ts Xenova/all-MiniLM-L6-v2 Xenova/multilingual-e5-small \
 *     --dtype q8 [--out public/models] [--host https://huggingface.co] [--revision main]
 *
 * Each model lands in `<out>/<org>/<name>/` — the layout transformers.js reads with
 * `env.localModelPath` — and `vite build` copies public/models/ into the build:
 *
 *   config.json, tokenizer.json, tokenizer_config.json   required
 *   special_tokens_map.json                              optional (a 404 is fine)
 *   onnx/<model file for --dtype>                        required
 *     q8 → onnx/model_quantized.onnx, fp32 → onnx/model.onnx (also fp16, int8, uint8, q4,
 *     q4f16, q2, q2f16, q1, q1f16, bnb4 → onnx/model_<dtype>.onnx, as transformers.js 4
 *     names them)
 *   onnx/<model file>_data[_N]                           required when config.json declares
 *                                                        transformers.js_config.use_external_data_format
 *
 * URLs are `${host}/${model}/resolve/${revision}/${file}`. Files are streamed to disk (a
 * `.part` file renamed when complete); a file already present with the size the server
 * reports is skipped. One line per file. HF_TOKEN, when set, is sent as a bearer token.
 *
 * Exit codes: 0 done; 2 bad arguments, or a required file missing (404) or unusable;
 * 1 any other failure (network, HTTP 5xx, disk). Errors are one `error:` line on stderr.
 */
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat, readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { fileURLToPath } from 'node:url';

export const DEFAULT_HOST = 'https://huggingface.co';
export const DEFAULT_OUT = 'public/models';

/** transformers.js's dtype → ONNX file suffix (model<suffix>.onnx). */
const DTYPE_SUFFIX: Record<string, string> = {
  fp32: '',
  fp16: '_fp16',
  q8: '_quantized',
  int8: '_int8',
  uint8: '_uint8',
  q4: '_q4',
  q4f16: '_q4f16',
  q2: '_q2',
  q2f16: '_q2f16',
  q1: '_q1',
  q1f16: '_q1f16',
  bnb4: '_bnb4',
};

const USAGE =
  'usage: download-models <org/name>... [--dtype q8|fp32|fp16|int8|uint8|q4|q4f16|…] ' +
  '[--out public/models] [--host https://huggingface.co] [--revision main]';

export interface DownloadOptions {
  models: string[];
  dtype: string;
  out: string;
  host: string;
  revision: string;
}

export interface Io {
  log: (line: string) => void;
  error: (line: string) => void;
}

export const defaultIo: Io = {
  log: (line) => console.log(line),
  error: (line) => console.error(line),
};

/** A failure that ends the run with one `error:` line and this exit code. */
export class DownloadError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

interface FileSpec {
  path: string;
  required: boolean;
}

export function onnxFileFor(dtype: string): string {
  const suffix = DTYPE_SUFFIX[dtype];
  if (suffix === undefined) {
    throw new DownloadError(`unknown --dtype "${dtype}" (one of ${Object.keys(DTYPE_SUFFIX).join(', ')})`, 2);
  }
  return `onnx/model${suffix}.onnx`;
}

export function parseArgs(argv: string[]): DownloadOptions {
  const opts: DownloadOptions = { models: [], dtype: 'q8', out: DEFAULT_OUT, host: DEFAULT_HOST, revision: 'main' };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const eq = arg.indexOf('=');
    const [flag, inline] = arg.startsWith('--') && eq > 0 ? [arg.slice(0, eq), arg.slice(eq + 1)] : [arg, undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined || v === '' || (inline === undefined && v.startsWith('--'))) {
        throw new DownloadError(`${flag} needs a value`, 2);
      }
      return v;
    };
    switch (flag) {
      case '--dtype':
        opts.dtype = value();
        break;
      case '--out':
        opts.out = value();
        break;
      case '--host':
        opts.host = value().replace(/\/+$/, '');
        break;
      case '--revision':
        opts.revision = value();
        break;
      default:
        if (arg.startsWith('-')) throw new DownloadError(`unknown option ${arg}`, 2);
        if (!/^[A-Za-z0-9][\w.-]*\/[A-Za-z0-9][\w.-]*$/.test(arg) || arg.includes('..')) {
          throw new DownloadError(`"${arg}" is not a model id of the form org/name`, 2);
        }
        opts.models.push(arg);
    }
  }
  if (opts.models.length === 0) throw new DownloadError('no model given (--help for usage)', 2);
  onnxFileFor(opts.dtype); // validates
  if (!/^https?:\/\/[^/]+/.test(opts.host)) throw new DownloadError(`--host must be an http(s) URL, got "${opts.host}"`, 2);
  if (!/^[\w.-]+$/.test(opts.revision)) throw new DownloadError(`bad --revision "${opts.revision}"`, 2);
  return opts;
}

function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

async function sizeOf(path: string): Promise<number | undefined> {
  try {
    const s = await stat(path);
    return s.isFile() ? s.size : undefined;
  } catch {
    return undefined;
  }
}

function headers(): Record<string, string> {
  const token = process.env.HF_TOKEN;
  return token ? { Authorization: `Bearer ${token}` } : {};
}

type Outcome = 'downloaded' | 'skipped' | 'absent';

/** Fetches one file to `dest`; 'absent' for an optional file the server does not have. */
async function fetchFile(url: string, dest: string, spec: FileSpec, label: string, io: Io): Promise<Outcome> {
  let res: Response;
  try {
    res = await fetch(url, { headers: headers(), redirect: 'follow' });
  } catch (e) {
    const cause = (e as { cause?: { message?: string } }).cause?.message ?? (e as Error).message;
    throw new DownloadError(`${label}: cannot reach ${url} (${cause})`, 1);
  }
  if (res.status === 404) {
    await res.body?.cancel();
    if (!spec.required) {
      io.log(`  -  ${label}  not on the server (optional)`);
      return 'absent';
    }
    throw new DownloadError(`${label}: required file not found (HTTP 404) at ${url}`, 2);
  }
  if (!res.ok || !res.body) {
    await res.body?.cancel();
    const hint = res.status === 401 || res.status === 403 ? ' (gated or private model? set HF_TOKEN)' : '';
    throw new DownloadError(`${label}: HTTP ${res.status} ${res.statusText} at ${url}${hint}`, 1);
  }
  const lengthHeader = res.headers.get('content-length');
  const total = lengthHeader !== null && /^\d+$/.test(lengthHeader) ? Number(lengthHeader) : undefined;
  const have = await sizeOf(dest);
  if (total !== undefined && have === total) {
    await res.body.cancel();
    io.log(`  =  ${label}  ${formatBytes(total)} (already present, skipped)`);
    return 'skipped';
  }

  await mkdir(dirname(dest), { recursive: true });
  const part = `${dest}.part`;
  let received = 0;
  let lastShown = 0;
  const tty = Boolean(process.stdout.isTTY) && io.log === defaultIo.log;
  const body = Readable.fromWeb(res.body as unknown as WebReadableStream<Uint8Array>);
  body.on('data', (chunk: Buffer) => {
    received += chunk.length;
    const now = Date.now();
    if (tty && now - lastShown > 250) {
      lastShown = now;
      const pct = total ? ` ${Math.floor((received / total) * 100)}%` : '';
      process.stdout.write(`\r  …  ${label}  ${formatBytes(received)}${pct}   `);
    }
  });
  try {
    await pipeline(body, createWriteStream(part));
  } catch (e) {
    await rm(part, { force: true });
    throw new DownloadError(`${label}: download failed (${(e as Error).message})`, 1);
  }
  if (tty) process.stdout.write('\r\x1b[K');
  if (total !== undefined && received !== total) {
    await rm(part, { force: true });
    throw new DownloadError(`${label}: truncated download (${received} of ${total} bytes)`, 1);
  }
  await rename(part, dest);
  io.log(`  ✓  ${label}  ${formatBytes(received)}`);
  return 'downloaded';
}

/** A static host's SPA fallback answers a missing file with index.html: refuse it. */
async function checkJson(path: string, label: string): Promise<unknown> {
  const text = await readFile(path, 'utf8');
  try {
    return JSON.parse(text);
  } catch {
    const html = /^\s*</.test(text) ? ' (got HTML — a web page instead of the file?)' : '';
    throw new DownloadError(`${label}: not valid JSON${html}`, 2);
  }
}

/**
 * Number of external-data chunks declared for the chosen ONNX file (0 when none), resolved as
 * transformers.js 4 does (utils/model-loader.js): `transformers.js_config.use_external_data_format`
 * is a boolean, a chunk count, or a map keyed by "model_quantized.onnx" or "model".
 * (Per-device overrides in `device_config` are not considered.)
 */
export function externalDataCount(config: unknown, onnxFile: string): number {
  const tjs = (config as Record<string, unknown> | null)?.['transformers.js_config'] as
    | Record<string, unknown>
    | undefined;
  let flag = tjs?.['use_external_data_format'];
  if (flag && typeof flag === 'object') {
    const map = flag as Record<string, unknown>;
    const fullName = onnxFile.replace(/^onnx\//, '');
    flag = Object.hasOwn(map, fullName) ? map[fullName] : Object.hasOwn(map, 'model') ? map['model'] : 0;
  }
  const n = Number(flag ?? 0);
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : 0;
}

export interface ModelResult {
  model: string;
  dir: string;
  downloaded: string[];
  skipped: string[];
  absent: string[];
}

export async function downloadModel(model: string, opts: DownloadOptions, io: Io = defaultIo): Promise<ModelResult> {
  const dir = resolve(opts.out, ...model.split('/'));
  const onnxFile = onnxFileFor(opts.dtype);
  const result: ModelResult = { model, dir, downloaded: [], skipped: [], absent: [] };
  const files: FileSpec[] = [
    { path: 'config.json', required: true },
    { path: 'tokenizer.json', required: true },
    { path: 'tokenizer_config.json', required: true },
    { path: 'special_tokens_map.json', required: false },
    { path: onnxFile, required: true },
  ];
  io.log(`${model} (${opts.dtype}) → ${dir}`);
  for (let i = 0; i < files.length; i++) {
    const spec = files[i]!;
    const label = `${model}/${spec.path}`;
    const url = `${opts.host}/${model}/resolve/${encodeURIComponent(opts.revision)}/${spec.path}`;
    const dest = join(dir, ...spec.path.split('/'));
    const outcome = await fetchFile(url, dest, spec, label, io);
    result[outcome === 'downloaded' ? 'downloaded' : outcome === 'skipped' ? 'skipped' : 'absent'].push(spec.path);
    if (outcome !== 'absent' && spec.path.endsWith('.json')) {
      const json = await checkJson(dest, label);
      if (spec.path === 'config.json') {
        const n = externalDataCount(json, onnxFile);
        const extra: FileSpec[] = [];
        for (let k = 0; k < n; k++) extra.push({ path: `${onnxFile}_data${k === 0 ? '' : `_${k}`}`, required: true });
        files.push(...extra);
      }
    }
  }
  return result;
}

/** Runs the command; returns the exit code (never calls process.exit). */
export async function main(argv: string[], io: Io = defaultIo): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    io.log(USAGE);
    return 0;
  }
  try {
    const opts = parseArgs(argv);
    const results: ModelResult[] = [];
    for (const model of opts.models) results.push(await downloadModel(model, opts, io));
    const got = results.reduce((n, r) => n + r.downloaded.length, 0);
    const kept = results.reduce((n, r) => n + r.skipped.length, 0);
    io.log(`done: ${results.length} model(s), ${got} file(s) downloaded, ${kept} already present`);
    return 0;
  } catch (e) {
    if (e instanceof DownloadError) {
      io.error(`error: ${e.message}`);
      return e.exitCode;
    }
    io.error(`error: ${(e as Error).message ?? String(e)}`);
    return 1;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
