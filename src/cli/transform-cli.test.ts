/**
 * eval and query --query-transform through the CLI (in this process) against the project's
 * OpenAI-compatible fixture with the deterministic rewriter (node/rewriter-fixture.ts): a 429 on
 * the first request, an unreadable reply; each transformation's exact results on a small
 * compound set; routing precision; a repeat asks nothing; bad options refused before any work.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failingFirst, startOpenAIFixture, type OpenAIFixture } from '../node/openai-fixture';
import { rewriter } from '../node/rewriter-fixture';
import { cliInProcess } from './cli-runner';

const FILLER = (topic: string) => Array.from({ length: 6 }, (_, i) => `This sentence ${i + 1} about ${topic} says nothing that anyone would ask about.`).join(' ');
const PLAGUE = `A bubonic plague pandemic struck Europe from 1346 to 1353. ${FILLER('the plague')} Historians think the Black Death had come from Central Asia, travelling along the Silk Road. ${FILLER('the pandemic')} Fleas on rats carried the bacterium Yersinia pestis.`;
const ROCK = `Sedimentary rocks form from deposits of sand, mud and shells. ${FILLER('rocks')} Under heat and pressure, sedimentary rock can turn into metamorphic rock. ${FILLER('stones')} Limestone becomes marble and shale becomes slate.`;

const QUESTIONS = [
  { id: 'origin-turn', q: 'Where did the Black Death come from and what can sedimentary rock turn into?', a: [['plague', 'Central Asia'], ['rock', 'metamorphic rock']] },
  { id: 'years-limestone', q: 'When did the pandemic strike Europe and what does Limestone become?', a: [['plague', '1346 to 1353'], ['rock', 'marble']] },
  { id: 'unreadable', q: 'What carried the unreadable plague and what do sedimentary rocks form from?', a: [['plague', 'Fleas on rats'], ['rock', 'deposits of sand, mud and shells']] },
  { id: 'europe', q: 'When did the pandemic reach Europe?', a: [['plague', '1346 to 1353']] },
  { id: 'fleas', q: 'What did Fleas on rats carry?', a: [['plague', 'Yersinia pestis']] },
  { id: 'shale', q: 'What does shale become under pressure?', a: [['rock', 'slate']] },
  { id: 'limestone', q: 'Which stone does Limestone become?', a: [['rock', 'marble']] },
] as const;

/** One tool per document; the rewriter routes by the cue words "exact words" and "meaning" (rewriter-fixture.ts). */
const DOC_TOOLS = [
  { name: 'plague_notes', retriever: 'bm25', document: 'plague.md', description: 'Useful for questions about the Black Death that name exact words.' },
  { name: 'rock_notes', retriever: 'bm25', document: 'rock.md', description: 'Useful for questions about rocks and what they turn into: their meaning.' },
];
/** The same tools described without the cues: the rewriter then takes the first. */
const VAGUE_TOOLS = DOC_TOOLS.map((t) => ({ ...t, description: `Notes (${t.document}).` }));

/** The compound set as the lab's JSONL: every part's answer span, found by its text in its file. */
function questionSet(): string {
  // A compound question needs both its answers.
  return QUESTIONS.map((x) => JSON.stringify({ id: x.id, question: x.q, answers: x.a.map(([doc, text]) => ({ doc: `${doc}.md`, text })), ...(x.a.length > 1 ? { needs: 'all' } : {}), source: { kind: 'marked' } })).join('\n') + '\n';
}

let dir: string;
let fixture: OpenAIFixture;
let data: string;
let docs: string[];
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rag-lab-transform-'));
  data = join(dir, 'compound.jsonl');
  writeFileSync(data, questionSet());
  writeFileSync(join(dir, 'plague.md'), `# Plague\n\n${PLAGUE}\n`);
  writeFileSync(join(dir, 'rock.md'), `# Sedimentary rock\n\n${ROCK}\n`);
  docs = [join(dir, 'plague.md'), join(dir, 'rock.md')];
  writeFileSync(join(dir, 'by-topic.json'), JSON.stringify(DOC_TOOLS));
  writeFileSync(join(dir, 'vague.json'), JSON.stringify(VAGUE_TOOLS));
  // The very first request is rate-limited once.
  let first = true;
  fixture = await startOpenAIFixture({ chat: failingFirst(rewriter, () => (first ? ((first = false), { status: 429, error: 'Rate limit reached', headers: { 'Retry-After': '0' } }) : null)) });
});
afterAll(async () => {
  await fixture?.close();
  rmSync(dir, { recursive: true, force: true });
});

const base = ['--retriever', 'bm25', '--strategies', 'window', '--window', '0,0', '--top-k', '2', '--budget', '64', '--endpoint', '', '--model', 'rewriter'];
const argsFor = (...more: string[]) => base.map((a) => (a === '' ? fixture.url : a)).concat(more);

describe('--query-transform against the fixture endpoint', () => {
  it('eval measures every transformation on a compound set, with routing precision', async () => {
    const tools = ['default', join(dir, 'by-topic.json'), join(dir, 'vague.json')].join(',');
    const r = await cliInProcess('eval', '--questions', data, ...docs, ...argsFor('--query-transform', 'none,multiquery,subquestions,hyde,router', '--tools', tools, '--cache', join(dir, 'cache'), '--json'));
    expect(r.code, r.stderr).toBe(0);
    // 7 questions × (multiquery, hyde, and sub-questions and router for each of 3 tool sets); the 429 was asked again.
    expect(r.stderr).toMatch(/query transformations: 56 rewrites \(7 questions × multiquery, subquestions, hyde, router × 3 tool sets where tools are chosen\); 0 from the cache \([^)]*\), 56 calls to make/);
    expect(fixture.chatRequests().map((c) => c.status).sort()).toEqual([...Array(56).fill(200), 429]);
    // Single questions' only variant is the question itself (4); the unreadable sub-questions reply, for each tool set (3).
    expect(r.stderr).toMatch(/7 questions retrieved as asked instead \(first: the generator wrote no variant that differs from the question\)/);
    const json = JSON.parse(r.stdout) as { results: { params: { queryTransform: string; tools?: string }; metrics: { answerInContext: number; recallAt5: number } }[]; routing: unknown[] };
    const byTransform = Object.fromEntries(json.results.map((x) => [x.params.queryTransform, x.metrics.answerInContext]));
    expect(json.results.map((x) => [x.params.queryTransform, x.params.tools ?? null])).toEqual([
      ['none', null],
      ['multiquery', null],
      ['subquestions', 'default'],
      ['subquestions', 'by-topic'],
      ['subquestions', 'vague'],
      ['hyde', null],
      ['router', 'default'],
      ['router', 'by-topic'],
      ['router', 'vague'],
    ]);
    // All-of answer in context (a compound question counts only with both facts) and recall@5, per transformation, of 7 questions.
    expect(json.results.map((x) => [x.params.queryTransform, x.params.tools ?? null, x.metrics.answerInContext * 7, x.metrics.recallAt5 * 14])).toEqual([
      ['none', null, 6, 13],
      ['multiquery', null, 6, 13],
      ['subquestions', 'default', 6, 13],
      ['subquestions', 'by-topic', 4, 10],
      ['subquestions', 'vague', 2, 7],
      ['hyde', null, 6, 13],
      ['router', 'default', 6, 13],
      ['router', 'by-topic', 3, 9],
      ['router', 'vague', 2, 7],
    ].map(([t, tools, aic, recall]) => [t, tools, expect.closeTo(aic as number, 9), expect.closeTo(recall as number, 9)]));
    // The wording of the descriptions is what routes: of the 4 questions only one document answers, 3 go there with the cues, 2 without
    // (compound questions need both documents: no single right route).
    const precision = (json.routing as { toolSet: string; transform: string; cases: number; correct: number; precision: number | null }[]).map((x) => [x.toolSet, x.transform, x.cases, x.correct, x.precision]);
    expect(precision).toEqual([
      ['default', 'subquestions', 0, 0, null],
      ['by-topic', 'subquestions', 4, 3, 0.75],
      ['vague', 'subquestions', 4, 2, 0.5],
      ['default', 'router', 0, 0, null],
      ['by-topic', 'router', 4, 3, 0.75],
      ['vague', 'router', 4, 2, 0.5],
    ]);
  });

  it('query shows the sub-questions with their tools and which query found each block; a repeat asks nothing', async () => {
    const before = fixture.requests.length;
    const q = QUESTIONS[0].q;
    const r = await cliInProcess('query', q, ...docs, ...argsFor('--query-transform', 'subquestions', '--cache', join(dir, 'cache'), '--json'));
    expect(r.code, r.stderr).toBe(0);
    expect(fixture.requests.length).toBe(before);
    const json = JSON.parse(r.stdout) as { transforms: { transform: string; queries: { text: string; role: string; tool?: string; retriever: string }[]; results: { blocks: { text: string; foundBy: number[] }[] }[] }[] };
    const t = json.transforms[0]!;
    expect(t.queries).toEqual([
      { text: 'Where did the Black Death come from?', role: 'sub', retriever: 'bm25', tool: 'keyword_search' },
      { text: 'what can sedimentary rock turn into?', role: 'sub', retriever: 'vector', tool: 'semantic_search' },
    ]);
    console.log(JSON.stringify(t.results[0]!.blocks.map((b) => [b.text, b.foundBy])));
  });

  it('export records the transformation and writes LlamaIndex code with the tools and their descriptions', async () => {
    const out = join(dir, 'bundle');
    const r = await cliInProcess('export', ...docs, '--retriever', 'bm25', '--strategy', 'window', '--out', out, '--query-transform', 'subquestions', '--tools', join(dir, 'by-topic.json'));
    expect(r.code, r.stderr).toBe(0);
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as { queryTransform: { transform: string; tools: { name: string; document: string }[]; sql: string; files: string[] } };
    expect(manifest.queryTransform.transform).toBe('subquestions');
    expect(manifest.queryTransform.tools.map((t) => t.name)).toEqual(['plague_notes', 'rock_notes']);
    // A tool's document named by file name is stored by the document's id.
    expect(manifest.queryTransform.tools.every((t) => !t.document.endsWith('.md'))).toBe(true);
    expect(manifest.queryTransform.sql).toMatch(/runs before SQL/);
    const py = readFileSync(join(out, 'frameworks/llamaindex/query_transform.py'), 'utf8');
    expect(py).toContain('SubQuestionQueryEngine.from_defaults(query_engine_tools=query_engine_tools(engine_for)');
    expect(py).toContain('("rock_notes", "Useful for questions about rocks and what they turn into: their meaning."),');
  });

  it('refuses wrong transformation options before any work', async () => {
    const bad = async (...a: string[]) => {
      const before = fixture.requests.length;
      const r = await cliInProcess('eval', '--questions', data, ...docs, '--retriever', 'bm25', ...a);
      expect(fixture.requests.length).toBe(before);
      expect(r.code).toBe(2);
      return r.stderr.trim();
    };
    expect(await bad('--query-transform', 'decompose')).toBe('error: --query-transform: unknown "decompose" (choose from none, multiquery, subquestions, hyde, router)');
    expect(await bad('--query-transform', 'router')).toBe('error: --query-transform needs a generator: --endpoint URL --model NAME, or --model test (the TEST model)');
    expect(await bad('--tools', 'default')).toBe('error: --tools is for --query-transform subquestions or router');
    writeFileSync(join(dir, 'bad-tools.json'), JSON.stringify([{ name: 'kw', retriever: 'bm25', description: 'x' }, { name: 'kw', retriever: 'vector', description: 'y' }]));
    expect(await bad('--query-transform', 'router', '--model', 'test', '--tools', join(dir, 'bad-tools.json'))).toBe(`error: --tools ${join(dir, 'bad-tools.json')}: tool 2: the name "kw" is used twice`);
    expect(await bad('--query-transform', 'multiquery', '--model', 'test', '--variants', '0')).toBe('error: --variants must be a whole number from 1 to 10, got "0"');
  });
});
