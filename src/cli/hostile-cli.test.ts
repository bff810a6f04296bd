/**
 * Issue 28 through the command line: bad input is one `error:` line and exit code 2, never a
 * stack trace; text printed to the terminal has its control characters made visible; verify's
 * SQL errors are one line; a bundle .zip is read like its folder; a refused import leaves the
 * corpus file it would have replaced as it was.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GOLDEN } from '../core/export/format';
import { withFile, withTable } from '../core/export/hostile-fixture';
import { readBundleDir, writeBundleDir } from '../node/bundle-fs';
import { inProcessRunner } from './cli-runner';
import { failureLines } from './failure';
import { renderTable } from './table';
import { visible } from './terminal';

/** Progress and notes left out: the tests read the error lines. */
const keep = (l: string) => Boolean(l.trim()) && !/^note: /.test(l) && !/^(embedding|verify in PGlite)/.test(l);
/** Every command here in this process (cli-runner.ts): these cases test what a command writes and returns. */
const cli = inProcessRunner({ keep });

/** Control characters a terminal acts on (tab and newline are layout). */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'rag-lab-hostile-'));
  writeFileSync(join(dir, 'esc.txt'), 'The terminal title \u009b]0;pwned\u0007 changes here. Red \u009b31m text and \u001b[2J a cleared screen follow.\n\nSolar panels make power.');
  writeFileSync(join(dir, 'bad\nname.txt'), 'Wind turbines spin in the wind. Offshore farms make more power.');
  writeFileSync(join(dir, 'solar.md'), '# Solar\n\nSolar panels turn sunlight into power. Batteries store it for the night.\n\n## Costs\n\nPanels cost less every year.');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.concurrent('terminal output (case 10)', () => {
  it('visible() shows control characters and bidi overrides as escapes', () => {
    expect(visible('a\u001b[2Jb\nc\td\u009b31m\u202eé')).toBe('a\\x1b[2Jb\\nc\\td\\x9b31m\\u202eé');
  });

  it('a file name with a newline keeps its table row on one line', () => {
    const table = renderTable(['document', 'n'], [['bad\nname', 1], ['ok', 2]]);
    expect(table.split('\n')).toEqual(['document   n', '---------  -', 'bad\\nname  1', 'ok         2']);
  });

  it('query prints document text with no control character the terminal would act on', async () => {
    const r = await cli('query', 'terminal title red text', join(dir, 'esc.txt'), '--retriever', 'bm25', '--strategies', 'sentence');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(CONTROL);
    expect(r.stdout).toContain('\\x9b]0;pwned');
  });

  it('index lists a file whose name holds a newline on one row', async () => {
    const r = await cli('index', join(dir, 'bad\nname.txt'), join(dir, 'solar.md'), '--retriever', 'bm25', '--out', join(dir, 'names.json'));
    expect(r.code, r.stderr).toBe(0);
    const rows = r.stdout.split('\n\n')[0]!.split('\n');
    expect(rows).toHaveLength(4);
    expect(rows[2]).toMatch(/^bad\\nname +en /);
  });
});

describe.concurrent('one error: line, exit 2 (cases 8, 11 and the CLI)', () => {
  it('eval on a set with 0 usable questions says why', async () => {
    const path = join(dir, 'empty.json');
    writeFileSync(path, JSON.stringify({ data: [{ title: 'T', paragraphs: [{ context: 'Some text.', qas: [{ id: 'u', question: 'q?', is_impossible: true, answers: [] }] }] }] }));
    const r = await cli('eval', '--data', path, '--retriever', 'bm25');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`error: --data ${path}: the SQuAD file has no usable question (question u: unanswerable (asked by answer runs only))`);
    expect(r.stdout).not.toContain('NaN');
  });

  it('eval reads a SQuAD file with a BOM and --language en_US', async () => {
    const path = join(dir, 'bom.json');
    writeFileSync(path, '\ufeff' + JSON.stringify({ data: [{ title: 'T', paragraphs: [{ context: 'Rivers flow to the sea. Lakes are still.', qas: [{ id: '1', question: 'Where do rivers flow?', answers: [{ text: 'the sea', answer_start: '15' }] }] }] }] }));
    const r = await cli('eval', '--data', path, '--retriever', 'bm25', '--strategies', 'sentence', '--language', 'en_US', '--json');
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.questions).toBe(1);
    expect(out.results[0].metrics.hitAt1).toBe(1);
  });

  it('verify: a golden run naming an unknown strategy is one error line; the bundle as a .zip verifies', async () => {
    const bundle = join(dir, 'bundle');
    const made = await cli('export', '--out', bundle, join(dir, 'solar.md'), '--retriever', 'bm25', '--question', 'solar power');
    expect(made.code, made.stderr).toBe(0);
    const files = readBundleDir(bundle);
    const zip = join(dir, 'bundle.zip');
    writeFileSync(zip, zipSync(Object.fromEntries(files.map((f) => [f.name, f.bytes]))));
    const golden = JSON.parse(new TextDecoder().decode(files.find((f) => f.name === GOLDEN)!.bytes));
    golden.runs[0].strategy = 'telepathy';
    const bad = join(dir, 'bad-bundle');
    writeBundleDir(bad, await withFile(files, GOLDEN, new TextEncoder().encode(JSON.stringify(golden))));
    const [fromZip, refused] = [await cli('verify', zip), await cli('verify', bad)];
    expect(refused.code).toBe(2);
    expect(refused.stderr.split('\n')).toHaveLength(1);
    expect(refused.stderr).toMatch(/^error: verify .*bad-bundle: PostgreSQL refused golden run bm25\/telepathy, question typed-1: /);
    expect(fromZip.code, fromZip.stderr).toBe(0);
    expect(fromZip.stdout).toContain('agreement: 100 %');
  }, 240_000);

  it('index --from a bundle with NaN vectors is refused and the corpus file it names is left as it was (case 4)', async () => {
    const bundle = join(dir, 'vectors');
    const made = await cli('export', '--out', bundle, join(dir, 'solar.md'));
    expect(made.code, made.stderr).toBe(0);
    const poisoned = await withTable(readBundleDir(bundle), 'vectors', (t) => ({ ...t, columns: { ...t.columns, embedding: Array.from(t.columns.embedding!).map((v) => new Float32Array(v as Float32Array).fill(Number.NaN)) } }));
    writeBundleDir(bundle, poisoned);
    const corpus = join(dir, 'good-corpus.json');
    writeFileSync(corpus, '{"the":"good corpus"}');
    const r = await cli('index', '--from', bundle, '--out', corpus);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: --from .*vectors: parquet\/vectors\.parquet is corrupt: the sentence vector of unit 0 holds NaN, not a finite number$/);
    expect(readFileSync(corpus, 'utf8')).toBe('{"the":"good corpus"}');
  }, 240_000);
});

describe('failureLines', () => {
  it('an unexpected error is one line pointing at --debug; with --debug the stack follows', () => {
    const e = new TypeError("Cannot read properties of null (reading 'x')\nmore");
    expect(failureLines(e, false)).toEqual(["error: Cannot read properties of null (reading 'x') (run again with --debug for details)"]);
    const lines = failureLines(e, true);
    expect(lines[0]).toBe("error: Cannot read properties of null (reading 'x')");
    expect(lines[1]).toMatch(/^TypeError: /);
  });
});
