/**
 * The CLI run for the tests, two ways. `cliRunner` spawns it as a child process — the bundle the
 * published command runs (dist-cli/main.js, built from the current sources by vitest's global
 * setup; src/cli/compiled-cli.test.ts checks it says the same as the sources) — exit code, stdout
 * and stderr as a user sees them. `cliInProcess` runs the dispatcher in the test's own
 * process, for tests of what a command says and returns rather than of the process: no start-up
 * at all, so the many bad-input cases cost milliseconds. Runs in this process go one at a time
 * (they borrow process.stdout, process.stderr and console.log while they run).
 */
import { spawn } from 'node:child_process';
import { format } from 'node:util';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../node/paths';

export interface Run {
  code: number | null;
  stdout: string;
  /** stderr without npm's own config warnings (some machines print them) and the lines `keep` drops. */
  stderr: string;
}

export interface RunnerOptions {
  /** Variables added to the environment (NO_COLOR is always set). */
  env?: Record<string, string>;
  /** Which stderr lines a test reads (default: all of them). */
  keep?: (line: string) => boolean;
  /** The child is killed after this long (default 120 s, vitest's test timeout here). */
  killAfterMs?: number;
}

const NPM_WARNING = /^npm (warn|WARN)/;
const BUNDLE = join(PROJECT_ROOT, 'dist-cli', 'main.js');

function stderrOf(raw: string, keep: (line: string) => boolean): string {
  return raw
    .split('\n')
    .filter((l) => !NPM_WARNING.test(l) && keep(l))
    .join('\n');
}

/** A function that runs `rag-lab <args…>` as a child process with these options. */
export function cliRunner(options: RunnerOptions = {}): (...args: string[]) => Promise<Run> {
  const keep = options.keep ?? (() => true);
  return (...args) =>
    new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [BUNDLE, ...args], {
        cwd: PROJECT_ROOT,
        env: { ...process.env, NO_COLOR: '1', ...options.env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      const timer = setTimeout(() => child.kill('SIGKILL'), options.killAfterMs ?? 120_000);
      child.on('error', reject);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code, stdout, stderr: stderrOf(stderr, keep) });
      });
    });
}

/** `rag-lab <args…>` as a child process, every stderr line kept. */
export const cli = cliRunner();

/** The stderr lines with text in them. */
export function stderrLines(r: Run): string[] {
  return r.stderr.split('\n').filter((l) => l.trim());
}

let queue: Promise<unknown> = Promise.resolve();

/**
 * A function that runs `rag-lab <args…>` in this process: the exit code main() returns and what it
 * wrote. `env` is set in process.env for the run's length and restored after it.
 */
export function inProcessRunner(options: Pick<RunnerOptions, 'keep' | 'env'> = {}): (...args: string[]) => Promise<Run> {
  const keep = options.keep ?? (() => true);
  const env = options.env ?? {};
  return (...args) => {
    const run = queue.then(() => capture(args, keep, env));
    queue = run.catch(() => undefined);
    return run;
  };
}

/** `rag-lab <args…>` in this process, every stderr line kept. */
export const cliInProcess = inProcessRunner();

async function capture(args: string[], keep: (line: string) => boolean, env: Record<string, string>): Promise<Run> {
  const { main } = await import('./dispatch');
  const envBefore = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  let stdout = '';
  let stderr = '';
  const { stdout: out, stderr: err } = process;
  const writes = { out: out.write, err: err.write, log: console.log };
  const collect = (to: 'out' | 'err') => ((chunk: string | Uint8Array) => {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    if (to === 'out') stdout += text;
    else stderr += text;
    return true;
  }) as typeof out.write;
  out.write = collect('out');
  err.write = collect('err');
  console.log = (...parts: unknown[]) => void (stdout += format(...parts) + '\n');
  try {
    const code = await main(args);
    return { code, stdout, stderr: stderrOf(stderr, keep) };
  } finally {
    out.write = writes.out;
    err.write = writes.err;
    console.log = writes.log;
    for (const [k, v] of Object.entries(envBefore)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}
