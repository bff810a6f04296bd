/**
 * eval --answers through the CLI (in this process) against the project's OpenAI-compatible
 * fixture on 127.0.0.1: right, wrong, sentence-wrapped, empty and abstaining answers, a 429 and a
 * 503 on first asking; every --answers-out line's values; a repeat with the same --cache sends
 * nothing; bad options are refused before any work.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failingFirst, startOpenAIFixture, type ChatCall, type ChatReply, type OpenAIFixture } from '../node/openai-fixture';
import { cliInProcess } from './cli-runner';

const PARAGRAPHS = [
  'The Zellenberg observatory stands on Mount Ferro. It was built in 1911 by the engineer Ada Kovács. Its main telescope has a mirror of 2.4 metres.',
  'The river Olm flows through the town of Brask. Brask is known for its glass workshops. The glass of Brask is blue.',
  'Ferries cross the bay twice a day in summer. In winter the harbour is closed to ferries. Fishing boats stay in the harbour all year.',
];
const QUESTIONS = [
  { id: 'built', q: 'Who built the Zellenberg observatory?', a: 'Ada Kovács', p: 0 },
  { id: 'river', q: 'Which river flows through Brask?', a: 'Olm', p: 1 },
  { id: 'glass', q: 'What colour is the glass of Brask?', a: 'blue', p: 1 },
  { id: 'mirror', q: 'How large is the mirror of the main telescope?', a: '2.4 metres', p: 0 },
];

function squad(): unknown {
  return {
    version: 'v2.0',
    data: [
      {
        title: 'Places',
        paragraphs: PARAGRAPHS.map((context, i) => ({
          context,
          qas: [
            ...QUESTIONS.filter((x) => x.p === i).map((x) => ({ id: x.id, question: x.q, answers: [{ text: x.a, answer_start: context.indexOf(x.a) }], is_impossible: false })),
            ...(i === 1 ? [{ id: 'mayor', question: 'Who is the mayor of Brask?', answers: [], is_impossible: true }] : []),
          ],
        })),
      },
    ],
  };
}

/** A judge that grades by the reference's words, makes one statement of an answer and supports it when the context has the answer. */
function judge(call: ChatCall): ChatReply | null {
  if (call.system.includes('You grade answers')) {
    const ref = /Reference answer\(s\): (.*)\n/.exec(call.user)![1]!;
    return { content: JSON.stringify({ correct: /Answer to grade: (.*)$/.exec(call.user)![1]!.includes(ref), reason: 'by the reference' }) };
  }
  if (call.system.includes('Break the answer')) return { content: JSON.stringify({ statements: [/Answer: (.*)$/.exec(call.user)![1]!] }) };
  if (call.system.includes('Decide for each statement')) {
    const statement = /\n1\. (.*)$/.exec(call.user)![1]!.replace(/\.$/, '');
    return { content: JSON.stringify({ verdicts: [{ statement, supported: call.user.split('Statements:')[0]!.includes(statement) }] }) };
  }
  return null;
}

/** A reader with habits: right, sentence-wrapped, wrong, empty, and it abstains without its fact. */
function reader(call: ChatCall): ChatReply {
  const judged = judge(call);
  if (judged) return judged;
  const question = /Question: (.*)$/.exec(call.user)?.[1] ?? '';
  const has = (s: string) => call.user.includes(s);
  if (question.startsWith('Who built') && has('Ada Kovács')) return { content: 'Ada Kovács [1].', usage: { prompt_tokens: 111, completion_tokens: 5 } };
  if (question.startsWith('Which river') && has('river Olm')) return { content: 'The river Olm flows through Brask [1].' };
  if (question.startsWith('What colour')) return { content: 'Green.' };
  if (question.startsWith('How large')) return { content: '' };
  return { content: 'I cannot answer from the sources.' };
}

let dir: string;
let fixture: OpenAIFixture;
let data: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rag-lab-answers-'));
  data = join(dir, 'places.json');
  writeFileSync(data, JSON.stringify(squad()));
  fixture = await startOpenAIFixture({
    chat: failingFirst(reader, (c) =>
      /Who built/.test(c.user) ? { status: 429, error: 'Rate limit reached', headers: { 'Retry-After': '0' } } : /What colour/.test(c.user) ? { status: 503, error: 'model is loading' } : null,
    ),
  });
});
afterAll(async () => {
  await fixture?.close();
  rmSync(dir, { recursive: true, force: true });
});

const args = (out: string, ...more: string[]) => ['eval', '--data', data, '--retriever', 'bm25', '--strategies', 'window', '--window', '1,1', '--top-k', '1', '--budget', '512', '--answers', '--endpoint', fixture.url, '--model', 'reader', '--cache', join(dir, 'cache'), '--answers-out', out, '--json', ...more];
const lines = (path: string) => readFileSync(path, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);

describe('eval --answers against the fixture endpoint', () => {
  it('answers every question once, retries 429 and 503, and scores each answer exactly', async () => {
    const out = join(dir, 'answers.jsonl');
    const r = await cliInProcess(...args(out));
    expect(r.code, r.stderr).toBe(0);
    // 5 prompts; the 429 and the 503 were asked again.
    expect(fixture.chatRequests().map((c) => c.status).sort()).toEqual([200, 200, 200, 200, 200, 429, 503]);
    expect(r.stderr).toMatch(/answers: 5 answers to score \(1 point × 1 order × 5 questions\) share 5 distinct prompts; 0 answered from the cache \([^)]*cache\), 5 calls to make/);
    expect(r.stderr).toMatch(/each call: A POST request goes to http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions asking the model "reader"/);
    expect(r.stderr).toMatch(/answers: 5 calls, 0 from the cache, 0 failed/);
    const recs = lines(out);
    expect(recs.map((x) => [x.question_id, x.answer, x.references, x.exact, x.abstained, x.unanswerable, x.failed])).toEqual([
      ['built', 'Ada Kovács.', ['Ada Kovács'], 1, false, false, null],
      ['mirror', '', ['2.4 metres'], null, false, false, 'the reply is empty'],
      ['river', 'The river Olm flows through Brask.', ['Olm'], 0, false, false, null],
      ['glass', 'Green.', ['blue'], 0, false, false, null],
      ['mayor', 'I cannot answer from the sources.', [], null, true, true, null],
    ]);
    // F1 of the sentence-wrapped answer: [river, olm, flows, through, brask] against [olm]: p 1/5, r 1.
    expect(recs.map((x) => x.f1)).toEqual([1, null, expect.closeTo(1 / 3, 12), 0, null]);
    for (const x of recs) {
      expect(x).toMatchObject({ strategy: 'window', retriever: 'bm25', budget_tokens: 512, cached: false });
      expect((x.params as { order: string }).order).toBe('score');
      expect(x.context).toMatch(/^\[1\] Places\n/);
    }
    // BM25's best sentence is the first ("Zellenberg observatory"), its window ±1 the first two.
    expect(recs[0]!.context).toBe('[1] Places\nThe Zellenberg observatory stands on Mount Ferro. It was built in 1911 by the engineer Ada Kovács.');
    expect(recs[0]!.prompt_tokens).toBe(111); // as the server reported it
    const json = JSON.parse(r.stdout) as { unanswerable: number; results: { metrics: Record<string, number>; intervals: Record<string, unknown>; answers: Record<string, number>; params: { order: string } }[] };
    expect(json.unanswerable).toBe(1);
    expect(json.results).toHaveLength(1);
    const m = json.results[0]!.metrics;
    // Of the 3 answered answerable questions: exact 1/3, F1 (1 + 1/3 + 0) / 3; the empty reply is left out.
    expect(m.answerExact).toBeCloseTo(1 / 3, 12);
    expect(m.answerF1).toBeCloseTo(4 / 9, 12);
    expect(m.abstention).toBe(1);
    expect(m.judgeCorrect).toBeUndefined();
    // Every answer was in its context; the model still missed two of three: what answer-in-context cannot see.
    expect(m.answerInContext).toBe(1);
    expect(Object.keys(json.results[0]!.intervals)).toEqual(expect.arrayContaining(['answerExact', 'answerF1', 'abstention', 'promptTokens', 'answerInContext']));
    expect(json.results[0]!.answers).toMatchObject({ questions: 5, answered: 4, failed: 1, unanswerable: 1 });
  });

  it('sends nothing when repeated with the same cache, and scores the same', async () => {
    const before = fixture.requests.length;
    const out = join(dir, 'again.jsonl');
    const r = await cliInProcess(...args(out));
    expect(r.code, r.stderr).toBe(0);
    expect(fixture.requests.length).toBe(before);
    expect(r.stderr).toMatch(/5 answered from the cache \([^)]*\), 0 calls to make/);
    const first = lines(join(dir, 'answers.jsonl'));
    expect(lines(out)).toEqual(first.map((x) => ({ ...x, cached: true })));
  });

  it('measures each block order as its own point', async () => {
    const out = join(dir, 'orders.jsonl');
    const r = await cliInProcess(...args(out, '--order', 'score,edges', '--top-k', '3'));
    expect(r.code, r.stderr).toBe(0);
    const json = JSON.parse(r.stdout) as { results: { params: { order: string } }[] };
    expect(json.results.map((x) => x.params.order)).toEqual(['score', 'edges']);
    expect(new Set(lines(out).map((x) => (x.params as { order: string }).order))).toEqual(new Set(['score', 'edges']));
  });

  it('judges the answers and recommends by them in a sweep, saying where answer in context would choose otherwise', async () => {
    const r = await cliInProcess('eval', '--sweep', '--data', data, '--retriever', 'bm25', '--strategies', 'naive,window', '--budget', '64', '--top-k', '3', '--answers', '--endpoint', fixture.url, '--model', 'reader', '--cache', 'none', '--judge', '--metric', 'judgeCorrect');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/then the judge: at most \d+ calls/);
    expect(r.stderr).toMatch(/judge: \d+ calls, 0 from the cache, 0 failed/);
    // Only windows of the hit sentence fit 64 tokens with the answer; naive 128-token chunks are cut to nothing useful.
    expect(r.stdout).toContain('== budget 64 tokens, by the answers: best window (bm25; window ±0 (hit sentences only); best first) judged correct 0.667, +0.667 over the best naive chunks (0.000)');
    expect(r.stdout).toMatch(/judged correct +faithful/);
    expect(r.stdout).not.toMatch(/== budget 64 tokens: best/);
  });

  it('refuses wrong answer options before any work', async () => {
    const bad = async (...a: string[]) => {
      const before = fixture.requests.length;
      const r = await cliInProcess('eval', '--data', data, '--retriever', 'bm25', ...a);
      expect(fixture.requests.length).toBe(before);
      expect(r.code).toBe(2);
      return r.stderr.trim();
    };
    expect(await bad('--answers')).toBe('error: --answers needs a generator: --endpoint URL --model NAME, or --model test (the TEST model)');
    expect(await bad('--answers', '--endpoint', fixture.url)).toBe('error: --endpoint needs --model NAME');
    expect(await bad('--answers', '--model', 'test', '--order', 'middle')).toBe('error: --order: unknown "middle" (choose from score, document, edges)');
    expect(await bad('--order', 'edges')).toBe('error: --order is for answer runs: add --answers');
    expect(await bad('--answers', '--model', 'test', '--judge-model', 'x')).toBe('error: --judge-endpoint, --judge-model and --judge-prompts need --judge');
    expect(await bad('--sweep', '--metric', 'answerF1')).toBe('error: --metric answerF1 ranks by the answers: add --answers and a generator');
  });
});
