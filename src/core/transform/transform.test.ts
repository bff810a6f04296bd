import { describe, expect, it } from 'vitest';
import type { ContextBlock } from '../types';
import { interleaveBlocks, transformPlan } from './retrieval';
import { MAX_SUBQUESTIONS, readHyde, readRewrite, readRouter, readSubQuestions, routerMessages, subQuestionFormat, subQuestionMessages } from './rewrites';
import { rightRoutes, routedTools, routingPrecision } from './routing';
import { DEFAULT_TOOLS, documentTools, readTools, ToolsError, type QueryTool } from './tools';

const TOOLS: QueryTool[] = [
  { name: 'kw', retriever: 'bm25', description: 'exact words' },
  { name: 'sem', retriever: 'vector', description: 'meaning' },
  { name: 'doc_a', retriever: 'hybrid', description: 'document A', document: 'a' },
];

describe('reading the generator’s rewrites', () => {
  it('reads sub-questions in every shape a model writes them, LlamaIndex’s field names too', () => {
    const want = { kind: 'subquestions', subquestions: [{ question: 'Where from?', tool: 'kw' }, { question: 'Turns into?', tool: 'sem' }] };
    expect(readSubQuestions('{"questions": [{"question": "Where from?", "tool": "kw"}, {"question": "Turns into?", "tool": "sem"}]}', TOOLS)).toEqual(want);
    expect(readSubQuestions('Sure:\n```json\n{"items": [{"sub_question": "Where from?", "tool_name": "kw"}, {"sub_question": "Turns into?", "tool_name": "sem"}]}\n```\nDone.', TOOLS)).toEqual(want);
    expect(readSubQuestions('<think>two parts</think>[{"question": "Where from?", "tool": "kw"}, {"question": "Turns into?", "tool": "sem",}]', TOOLS)).toEqual(want);
  });
  it('falls back to the plain question, saying why, on a tool that does not exist, an empty list, too many or no JSON', () => {
    expect(readSubQuestions('{"questions": [{"question": "Q?", "tool": "web_search"}]}', TOOLS)).toEqual({ kind: 'fallback', transform: 'subquestions', note: 'the generator named a tool that does not exist ("web_search")' });
    expect(readSubQuestions('{"questions": []}', TOOLS)).toEqual({ kind: 'fallback', transform: 'subquestions', note: 'the generator wrote no sub-question' });
    const many = JSON.stringify({ questions: Array.from({ length: MAX_SUBQUESTIONS + 1 }, (_, i) => ({ question: `Q${i}?`, tool: 'kw' })) });
    expect(readSubQuestions(many, TOOLS)).toEqual({ kind: 'fallback', transform: 'subquestions', note: `the generator wrote ${MAX_SUBQUESTIONS + 1} sub-questions, more than ${MAX_SUBQUESTIONS}` });
    expect(readSubQuestions('I would search both.', TOOLS)).toEqual({ kind: 'fallback', transform: 'subquestions', note: 'the reply holds no sub-questions as JSON: "I would search both."' });
  });
  it('reads the router’s choice by number or name, and refuses one out of range', () => {
    expect(readRouter('{"choice": 2, "reason": "a meaning"}', TOOLS)).toEqual({ kind: 'router', tool: 'sem', reason: 'a meaning' });
    expect(readRouter('```json\n[{"choice": "3", "reason": "about A"}]\n```', TOOLS)).toEqual({ kind: 'router', tool: 'doc_a', reason: 'about A' });
    expect(readRouter('{"tool": "kw"}', TOOLS)).toEqual({ kind: 'router', tool: 'kw', reason: '' });
    expect(readRouter('(1)', TOOLS)).toEqual({ kind: 'router', tool: 'kw', reason: '' });
    expect(readRouter('{"choice": 4, "reason": "x"}', TOOLS)).toEqual({ kind: 'fallback', transform: 'router', note: 'the generator chose "4", which is not one of the 3 tools' });
  });
  it('cleans the hypothetical passage and reads multi-query variants', () => {
    expect(readHyde('<think>hm</think>Passage: """The plague came from Central Asia."""')).toEqual({ kind: 'hyde', passage: 'The plague came from Central Asia.' });
    expect(readHyde('   ')).toEqual({ kind: 'fallback', transform: 'hyde', note: 'the generator wrote no passage' });
    expect(readRewrite('multiquery', 'Here are 2 queries:\n1. plague origin\n2. "Black Death source"', 'Where did the plague come from?', [], 3)).toEqual({ kind: 'multiquery', variants: ['plague origin', 'Black Death source'] });
  });
  it('asks with the tools listed and their names as the schema’s enum', () => {
    expect(subQuestionMessages('A and B?', TOOLS)[1]!.content).toContain('"doc_a": "document A"');
    expect(JSON.stringify(subQuestionFormat(TOOLS))).toContain('"enum":["kw","sem","doc_a"]');
    expect(routerMessages('Q?', TOOLS)[1]!.content).toContain('(2) meaning');
  });
});

describe('the queries a rewrite retrieves with', () => {
  it('routes sub-questions and the router to their tools, and fuses variants and HyDE with the question', () => {
    expect(transformPlan('A and B?', { kind: 'subquestions', subquestions: [{ question: 'A?', tool: 'kw' }, { question: 'B?', tool: 'doc_a' }] }, 'vector', TOOLS)).toMatchObject({
      combine: 'interleave',
      queries: [
        { text: 'A?', role: 'sub', retriever: 'bm25', tool: 'kw' },
        { text: 'B?', role: 'sub', retriever: 'hybrid', tool: 'doc_a', document: 'a' },
      ],
    });
    expect(transformPlan('Q?', { kind: 'router', tool: 'sem', reason: 'meaning' }, 'bm25', TOOLS)).toMatchObject({ combine: 'single', queries: [{ text: 'Q?', role: 'question', retriever: 'vector', tool: 'sem' }], notes: ['routed to sem: meaning'] });
    expect(transformPlan('Q?', { kind: 'hyde', passage: 'P.' }, 'bm25', TOOLS)).toMatchObject({ combine: 'fuse', queries: [{ text: 'Q?', role: 'question' }, { text: 'P.', role: 'hyde' }] });
    expect(transformPlan('Q?', { kind: 'multiquery', variants: ['q', 'R'] }, 'bm25', TOOLS).queries.map((q) => q.text)).toEqual(['Q?', 'R']);
    expect(transformPlan('Q?', { kind: 'fallback', transform: 'router', note: 'no choice' }, 'bm25', TOOLS)).toMatchObject({ combine: 'single', queries: [{ text: 'Q?', retriever: 'bm25' }], notes: ['no choice: the question is retrieved as asked'] });
  });

  it('shares the budget by interleaving: every list’s best block before any second-best, overlaps once, a block too big skipped', () => {
    const b = (doc: number, start: number, end: number, tokens: number): ContextBlock => ({ id: `${doc}:${start}`, doc, start, end, tokens, text: '', hits: [], score: 0, sentences: { start: 0, end: 1 }, provenance: { unit: 'sentence', ranks: {} } }) as unknown as ContextBlock;
    const a1 = b(0, 0, 10, 30);
    const a2 = b(0, 100, 110, 30);
    const a3 = b(0, 200, 210, 10);
    const b1 = b(1, 0, 10, 50);
    const b2 = b(0, 5, 15, 20); // overlaps a1: list 1 found it too
    const b3 = b(1, 50, 60, 10);
    const r = interleaveBlocks([[a1, a2, a3], [b1, b2, b3]], 100);
    // a1 (30), b1 (50) → 80; a2 (30) does not fit; b2 overlaps a1; a3 (10) → 90; b3 (10) → 100.
    expect(r.blocks).toEqual([a1, b1, a3, b3]);
    expect(r.foundBy).toEqual([[0, 1], [1], [0], [1]]);
    expect(interleaveBlocks([[a1, a2], [b1]], null).blocks).toEqual([a1, b1, a2]);
  });
});

describe('routing precision', () => {
  it('counts only questions one tool alone finds, per right tool', () => {
    const found = new Map([
      ['kw', [true, true, false, true, false]],
      ['sem', [false, true, true, false, false]],
    ]);
    const right = rightRoutes(found, 5);
    expect(right).toEqual(['kw', null, 'sem', 'kw', null]);
    const routed = [routedTools({ kind: 'router', tool: 'kw', reason: '' }), ['kw'], routedTools({ kind: 'subquestions', subquestions: [{ question: 'a', tool: 'kw' }, { question: 'b', tool: 'sem' }] }), routedTools({ kind: 'fallback', transform: 'router', note: '' }), []];
    expect(routingPrecision(right, routed)).toEqual({ cases: 3, correct: 2, precision: 2 / 3, byTool: { kw: { cases: 2, correct: 1 }, sem: { cases: 1, correct: 1 } } });
    expect(routingPrecision([null, null], [[], []]).precision).toBeNull();
  });
});

describe('tools', () => {
  it('checks a tool set and names the entry at fault', () => {
    expect(readTools(DEFAULT_TOOLS)).toEqual(DEFAULT_TOOLS);
    expect(() => readTools({})).toThrow(new ToolsError('the tools must be a JSON list: [{"name", "retriever", "description"}]'));
    expect(() => readTools([{ name: 'a b', retriever: 'bm25', description: 'x' }])).toThrow('tool 1: "name" must be 1–64 letters, digits, _ or -');
    expect(() => readTools([{ name: 'a', retriever: 'web', description: 'x' }])).toThrow('tool 1 (a): "retriever" must be bm25, vector, hybrid');
    expect(() => readTools([{ name: 'a', retriever: 'bm25', description: ' ' }])).toThrow('tool 1 (a): "description" is empty');
  });
  it('makes one tool per document, named from its title', () => {
    expect(documentTools([{ id: 'x', title: 'São Paulo: a city' }, { id: 'y', title: 'São Paulo: a city' }, { id: 'z', title: '中华人民共和国宪法', context: { summary: 'The constitution.' } }], 'bm25')).toEqual([
      { name: 'doc_sao_paulo_a_city', retriever: 'bm25', description: 'Useful for questions about the document "São Paulo: a city".', document: 'x' },
      { name: 'doc_sao_paulo_a_city_2', retriever: 'bm25', description: 'Useful for questions about the document "São Paulo: a city".', document: 'y' },
      { name: 'doc_document', retriever: 'bm25', description: 'Useful for questions about the document "中华人民共和国宪法". The constitution.', document: 'z' },
    ]);
  });
});
