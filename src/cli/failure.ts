/**
 * How the CLI reports a failure: one `error:` line (control characters made visible) and
 * exit code 2; the stack only with --debug. Loaders, dataset readers and bundle checks throw
 * their own one-line errors (LoaderError, DatasetError, BundleError); anything else is
 * reported the same way, with a pointer to --debug, instead of Node's stack trace.
 */
import { visible } from './terminal';

const OWN_ERRORS = new Set(['UsageError', 'LoaderError', 'DatasetError', 'BundleError', 'RangeError']);

/** The lines to print on stderr for an error. */
export function failureLines(e: unknown, debug: boolean): string[] {
  const err = e instanceof Error ? e : new Error(String(e));
  const first = (err.message || err.name).split('\n').find((l) => l.trim()) ?? err.name;
  const known = OWN_ERRORS.has(err.name) || OWN_ERRORS.has(err.constructor?.name ?? '');
  const line = `error: ${visible(first)}${!known && !debug ? ' (run again with --debug for details)' : ''}`;
  return debug && err.stack ? [line, visible(err.stack).replace(/\\n/g, '\n')] : [line];
}

/** Writes the failure to stderr; returns the exit code (2). */
export function reportFailure(e: unknown, debug: boolean): number {
  for (const l of failureLines(e, debug)) process.stderr.write(l + '\n');
  return 2;
}
