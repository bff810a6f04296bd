/**
 * `questions generate` end to end: the CLI (main() in this process, cli-runner.ts) against the mock
 * OpenAI-compatible server of questions-mock-server.ts, started here on 127.0.0.1; then
 * `eval --questions` on the set it wrote, `questions convert`, `query --json`, and bad input.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliInProcess, inProcessRunner, type Run } from './cli-runner';
import { startQuestionMock, type QuestionMock } from './questions-mock-server';

/** Blank stderr lines dropped. */
const cli = inProcessRunner({ keep: (l) => Boolean(l.trim()) });

/** Three handbooks of 9 parts with 2 paragraphs each: 54 passages of at most 60 tokens. */
function handbook(n: number): string {
  const things = ['river', 'stone', 'garden', 'lamp', 'market', 'harbour', 'winter', 'copper', 'meadow', 'castle', 'orchard', 'violin', 'signal', 'engine', 'lantern', 'bridge'];
  const out = [`# Handbook ${n}`];
  let k = n * 7;
  const t = () => things[(k = (k * 5 + 3) % 97) % things.length]!;
  for (let part = 1; part <= 9; part++) {
    out.push(`## Part ${part}`);
    for (let p = 0; p < 2; p++) {
      const sentences = Array.from({ length: 4 }, (_, s) => `The ${t()} near the ${t()} holds ${100 * n + 10 * part + 3 * p + s} ${t()}s and a ${t()} ${t()}.`);
      out.push(sentences.join(' '));
    }
  }
  return out.join('\n\n') + '\n';
}

let dir: string;
let mock: QuestionMock;
let docs: string[];
let generated: Run;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rag-lab-questions-'));
  docs = [1, 2, 3].map((n) => {
    const path = join(dir, `handbook${n}.md`);
    writeFileSync(path, handbook(n));
    return path;
  });
  mock = await startQuestionMock();
  generated = await cli('questions', 'generate', ...docs, '--endpoint', mock.url, '--model', 'mock', '--n', '50', '--seed', '1', '--passage-tokens', '60', '--out', join(dir, 'set.jsonl'));
}, 180_000);
afterAll(async () => {
  await mock?.close();
  rmSync(dir, { recursive: true, force: true });
});

const lines = (path: string) => readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);

describe('questions generate against a mock endpoint', () => {
  it('keeps and rejects exactly what the fixtures call for, and says so', () => {
    expect(generated.code).toBe(0);
    const out = generated.stdout.trim().split('\n');
    expect(out[0]).toBe('kept 20 of 50 asked · rejected 30: not-json 5, answer-not-found 5, dont-know 5, duplicate 5, copies-passage 5, error 5');
    expect(out[1]).toMatch(/^52 calls \(50 questions asked, 2 retries\) · \d+\.\d s$/);
    expect(out[2]).toBe('copy share of kept questions (share of their content words found in the passage): 0.0–0.2: 0 · 0.2–0.4: 20 · 0.4–0.6: 0 · 0.6–0.8: 0 · 0.8–1.0: 0');
    expect(out[3]).toBe(`wrote ${join(dir, 'set.jsonl')} (20 questions) and ${join(dir, 'set.rejected.jsonl')} (30 rejected, each with its reason)`);
    // Before starting: the plan and where the text goes; the 429 waited its Retry-After, the 503 backed off.
    expect(generated.stderr).toContain('plan: 50 questions asked from 50 passages of 3 documents (specific, seed 1); 50 calls');
    expect(generated.stderr).toContain('The endpoint is on this machine, so the text does not leave it.');
    expect(generated.stderr).toContain('is limiting requests (HTTP 429: rate limit reached); try again in 1 s; waiting 1.0 s');
    expect(generated.stderr).toContain('failed (HTTP 503: model is loading); waiting 1.0 s');
  });

  it('wrote the kept questions with gold spans in their documents, and the rejected ones with reasons', () => {
    const kept = lines(join(dir, 'set.jsonl'));
    expect(kept).toHaveLength(20);
    const texts = Object.fromEntries(docs.map((p, i) => [i, readFileSync(p, 'utf8')]));
    for (const q of kept) {
      const a = (q.answers as { doc: string; start: number; end: number; text: string }[])[0]!;
      expect(q.source).toMatchObject({ kind: 'generated', model: 'mock' });
      expect(q.type).toBe('specific');
      expect(Object.values(texts).some((t) => t.includes(a.text))).toBe(true);
      expect((q.source as { passage: { text: string }[] }).passage[0]!.text).toContain(a.text);
    }
    const rejected = lines(join(dir, 'set.rejected.jsonl'));
    const count = (reason: string) => rejected.filter((r) => r.reason === reason).length;
    expect(['not-json', 'answer-not-found', 'dont-know', 'duplicate', 'copies-passage', 'error'].map(count)).toEqual([5, 5, 5, 5, 5, 5]);
    expect(rejected.filter((r) => r.reason === 'error').map((r) => String(r.detail).replace(/http:\/\/127\.0\.0\.1:\d+/, 'URL'))).toEqual([
      'URL/v1/chat/completions rejected the request (HTTP 400: the request was refused)',
      'URL/v1/chat/completions rejected the request (HTTP 400: the request was refused)',
      'the endpoint at URL/v1/chat/completions refused the request (HTTP 401: Incorrect API key provided) — no key was sent; set its API key',
      'URL/v1/chat/completions rejected the request (HTTP 400: the request was refused)',
      'URL/v1/chat/completions rejected the request (HTTP 400: the request was refused)',
    ]);
    // Every request asked for structured outputs.
    expect(mock.requests.every((r) => (r.body?.response_format as { type?: string })?.type === 'json_schema')).toBe(true);
    expect(mock.requests).toHaveLength(52);
  });

  it('eval --questions prints the eval table and --json object with where the questions came from', async () => {
    const [table, json] = await Promise.all([
      cli('eval', '--questions', join(dir, 'set.jsonl'), ...docs, '--retriever', 'bm25', '--strategies', 'naive,window'),
      cli('eval', '--questions', join(dir, 'set.jsonl'), ...docs, '--retriever', 'bm25', '--strategies', 'naive,window', '--json'),
    ]);
    expect(table.code).toBe(0);
    expect(table.stdout).toContain('dataset set.jsonl: 3 documents');
    expect(table.stdout).toContain('questions: 20 generated by mock, of 50 asked; 30 rejected\n');
    expect(table.stdout).toMatch(/bm25 +naive/);
    expect(json.code).toBe(0);
    const obj = JSON.parse(json.stdout) as { dataset: string; questions: number; sources: string; results: { strategy: string; metrics: { hitAt5: number } }[] };
    expect([obj.dataset, obj.questions, obj.sources]).toEqual(['set.jsonl', 20, '20 generated by mock, of 50 asked; 30 rejected']);
    expect(obj.results.map((r) => r.strategy)).toEqual(['naive', 'window']);
    // Each question names one answer word, so BM25 finds some of them.
    expect(obj.results[0]!.metrics.hitAt5).toBeGreaterThan(0);
  }, 180_000);
});

describe('questions convert, query --json and bad input', () => {
  it('converts a set to SQuAD and BEIR over the same documents', async () => {
    const [squad, beir] = await Promise.all([
      cli('questions', 'convert', join(dir, 'set.jsonl'), ...docs, '--to', 'squad', '--out', join(dir, 'set.squad.json')),
      cli('questions', 'convert', join(dir, 'set.jsonl'), ...docs, '--to', 'beir', '--out', join(dir, 'beir')),
    ]);
    expect([squad.code, squad.stdout.trim()]).toEqual([0, `20 questions from set.jsonl → squad: ${join(dir, 'set.squad.json')}`]);
    const data = JSON.parse(readFileSync(join(dir, 'set.squad.json'), 'utf8')) as { data: { paragraphs: { context: string; qas: { answers: { text: string; answer_start: number }[] }[] }[] }[] };
    const qas = data.data.flatMap((a) => a.paragraphs.flatMap((p) => p.qas.map((q) => ({ q, context: p.context }))));
    expect(qas).toHaveLength(20);
    for (const { q, context } of qas) expect(context.slice(q.answers[0]!.answer_start, q.answers[0]!.answer_start + q.answers[0]!.text.length)).toBe(q.answers[0]!.text);
    expect(beir.code).toBe(0);
    expect(['queries.jsonl', 'qrels/test.tsv', 'corpus.jsonl'].map((f) => existsSync(join(dir, 'beir', f)))).toEqual([true, true, true]);
    expect(readFileSync(join(dir, 'beir', 'qrels/test.tsv'), 'utf8').split('\n').filter(Boolean)).toHaveLength(21);
  }, 180_000);

  it('query --json hands over each strategy\'s blocks with text, scores and spans', async () => {
    const r = await cli('query', 'copper meadow', docs[0]!, '--retriever', 'bm25', '--strategies', 'naive,window', '--json');
    expect(r.code).toBe(0);
    const obj = JSON.parse(r.stdout) as { question: string; results: { strategy: string; blocks: { rank: number; doc: { fileName: string }; start: number; end: number; text: string; score: number; provenance: { ranks: Record<string, number | null> } }[] }[] };
    expect(obj.question).toBe('copper meadow');
    expect(obj.results.map((x) => x.strategy)).toEqual(['naive', 'window']);
    const text = readFileSync(docs[0]!, 'utf8');
    const b = obj.results[1]!.blocks[0]!;
    expect([b.rank, b.doc.fileName, typeof b.score, b.provenance.ranks.bm25]).toEqual([1, 'handbook1.md', 'number', 1]);
    expect(b.text).toContain('copper');
    expect(text.includes(b.text.split('\n')[0]!)).toBe(true);
  }, 180_000);

  it('generates from chosen documents only, and evaluates over a saved corpus, counting questions whose document is not in it', async () => {
    const fresh = await startQuestionMock();
    try {
      const corpus = join(dir, 'corpus.json');
      const [gen, index] = await Promise.all([
        cli('questions', 'generate', ...docs, '--endpoint', fresh.url, '--model', 'mock', '--n', '3', '--documents', 'handbook2.md', '--passage-tokens', '60', '--out', join(dir, 'only2.jsonl')),
        cli('index', docs[0]!, '--retriever', 'bm25', '--out', corpus),
      ]);
      // Items 0, 1, 2 of the mock's cycle: good, fenced, not JSON.
      expect([gen.code, gen.stdout.split('\n')[0]]).toEqual([0, 'kept 2 of 3 asked · rejected 1: not-json 1']);
      const handbook2 = readFileSync(docs[1]!, 'utf8');
      for (const q of lines(join(dir, 'only2.jsonl'))) expect(handbook2).toContain((q.answers as { text: string }[])[0]!.text);
      expect(index.code).toBe(0);
      const ev = await cli('eval', '--questions', join(dir, 'set.jsonl'), '--corpus', corpus, '--retriever', 'bm25', '--strategies', 'naive', '--json');
      expect(ev.code).toBe(0);
      const obj = JSON.parse(ev.stdout) as { questions: number; sources: string };
      // Scored: the questions about handbook 1 (the corpus's one document); the rest are counted.
      const id = (JSON.parse(readFileSync(corpus, 'utf8')) as { docs: { id: string }[] }).docs[0]!.id;
      const about1 = lines(join(dir, 'set.jsonl')).filter((q) => (q.answers as { doc: string }[])[0]!.doc === id).length;
      expect(about1).toBeGreaterThan(0);
      expect(obj.questions).toBe(about1);
      expect(obj.sources).toBe(`20 generated by mock, of 50 asked; 30 rejected · not scored: ${20 - about1} with missing documents`);
    } finally {
      await fresh.close();
    }
  }, 180_000);

  it('answers every bad input with one error line and exit code 2', async () => {
    const url = mock.url;
    writeFileSync(join(dir, 'exists.jsonl'), '');
    // What each command says about its input, in this process (cli-runner.ts runs them one at a time).
    const runs = await Promise.all([
      cliInProcess('questions', 'generate', ...docs, '--model', 'm', '--out', join(dir, 'x.jsonl')),
      cliInProcess('questions', 'generate', ...docs, '--endpoint', url, '--model', 'm', '--kinds', 'specific,tricky', '--out', join(dir, 'x.jsonl')),
      cliInProcess('questions', 'generate', ...docs, '--endpoint', url, '--model', 'm', '--out', join(dir, 'exists.jsonl')),
      cliInProcess('questions', 'generate', ...docs, '--endpoint', url, '--model', 'refuse', '--n', '5', '--out', join(dir, 'refused.jsonl')),
      cliInProcess('questions', 'convert', join(dir, 'set.jsonl'), ...docs, '--to', 'csv', '--out', join(dir, 'x.csv')),
      cliInProcess('eval', '--questions', join(dir, 'nope.jsonl'), ...docs, '--retriever', 'bm25'),
      cliInProcess('questions', 'frobnicate'),
    ]);
    expect(runs.map((r) => r.code)).toEqual([2, 2, 2, 2, 2, 2, 2]);
    expect(runs.map((r) => r.stderr.split('\n').filter((l) => l.startsWith('error:')).map((l) => l.replace(/http:\/\/127\.0\.0\.1:\d+/, 'URL').replace(dir, 'DIR')))).toEqual([
      ['error: questions generate: --endpoint URL is required (an OpenAI-compatible server, e.g. http://localhost:11434)'],
      ['error: --kinds: unknown "tricky" (choose from specific, abstract, multi-passage)'],
      ['error: --out DIR/exists.jsonl exists; choose another name or remove it (a set is never overwritten)'],
      ['error: questions generate: the first 3 calls all failed, so the run stopped: the endpoint at URL/v1/chat/completions refused the request (HTTP 401: Incorrect API key provided) — no key was sent; set its API key'],
      ['error: questions convert: --to must be one of jsonl, squad, beir, ragas, llamaindex, got "csv"'],
      ['error: --questions DIR/nope.jsonl: no such file or folder'],
      ['error: questions: unknown subcommand "frobnicate" (generate, convert)'],
    ]);
    expect(existsSync(join(dir, 'refused.jsonl'))).toBe(false);
  }, 180_000);
});
