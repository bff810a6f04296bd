import { describe, expect, it } from 'vitest';
import { parseQueryVariants, QUERY_GEN_PROMPT, queryGenerationPrompt } from './query-variants';

describe('queryGenerationPrompt', () => {
  it("is LlamaIndex's QUERY_GEN_PROMPT with n and the question filled in, plus a language instruction", () => {
    const msgs = queryGenerationPrompt('  Como funciona o RRF?  ', 3);
    expect(msgs).toHaveLength(2);
    expect(msgs[0]!.role).toBe('system');
    expect(msgs[0]!.content).toMatch(/same language as the input query/);
    expect(msgs[1]).toEqual({
      role: 'user',
      content:
        'You are a helpful assistant that generates multiple search queries based on a single input query. ' +
        'Generate 3 search queries, one on each line, related to the following input query:\n' +
        'Query: Como funciona o RRF?\nQueries:\n',
    });
    expect(QUERY_GEN_PROMPT).toContain('{num_queries}');
  });

  it('keeps $-patterns in the question literal and rejects bad n or an empty question', () => {
    expect(queryGenerationPrompt('cost in $& and $1', 2)[1]!.content).toContain('Query: cost in $& and $1\n');
    expect(() => queryGenerationPrompt('q', 0)).toThrow(RangeError);
    expect(() => queryGenerationPrompt('q', 1.5)).toThrow(RangeError);
    expect(() => queryGenerationPrompt('   ', 2)).toThrow(/question/);
  });
});

describe('parseQueryVariants', () => {
  const q = 'How does reciprocal rank fusion work?';

  it('strips numbering, bullets, quotes and bold; skips blank lines and a preamble', () => {
    const reply = [
      'Here are 4 search queries:',
      '',
      '1. What is reciprocal rank fusion',
      '2) "RRF formula k=60"',
      '- **rank fusion in hybrid search**',
      '* “combining ranked lists”',
      '',
    ].join('\n');
    expect(parseQueryVariants(reply, q, 5)).toEqual(['What is reciprocal rank fusion', 'RRF formula k=60', 'rank fusion in hybrid search', 'combining ranked lists']);
  });

  it('drops duplicates (case and spaces) and the question itself, and returns at most n', () => {
    const reply = 'how does  Reciprocal rank fusion work\nRRF explained\nrrf EXPLAINED?\nRRF vs. CombSUM\nRRF in Elasticsearch';
    expect(parseQueryVariants(reply, q, 2)).toEqual(['RRF explained', 'RRF vs. CombSUM']);
    expect(parseQueryVariants(reply, q, 10)).toEqual(['RRF explained', 'RRF vs. CombSUM', 'RRF in Elasticsearch']);
    expect(parseQueryVariants(reply, q, 0)).toEqual([]);
  });

  it("does not cut decimals as LlamaIndex's split on \\d+\\. would", () => {
    expect(parseQueryVariants('1. features of version 2.5\n2. 3.5 million users', q, 3)).toEqual(['features of version 2.5', '3.5 million users']);
  });

  it('handles CRLF, code fences, labels, a chatty first line and non-Latin text', () => {
    const reply = 'Sure! Here are three queries.\r\n```\r\nQuery 1: 倒数排名融合是什么\r\n(2) RRF 算法\r\n```\r\n';
    expect(parseQueryVariants(reply, q, 3)).toEqual(['倒数排名融合是什么', 'RRF 算法']);
  });

  it('returns nothing for an empty or question-only reply', () => {
    expect(parseQueryVariants('', q, 3)).toEqual([]);
    expect(parseQueryVariants(`1. ${q}\n\n`, q, 3)).toEqual([]);
  });
});
