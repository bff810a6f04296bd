import { describe, expect, it } from 'vitest';
import { retrievalParams, UNIT_KINDS, type UnitKind } from '../core/retrieve/params';
import type { ColumnSpec, WorkerStatus } from '../worker/protocol';
import { columnDependencies } from './column-refresh';

const status = (coverage: Partial<Record<UnitKind, [number, number]>>, docs = 2) =>
  ({
    docs: Array.from({ length: docs }),
    embedding: { coverage: Object.fromEntries(UNIT_KINDS.map((k) => [k, { done: coverage[k]?.[0] ?? 0, total: coverage[k]?.[1] ?? 0 }])) },
  }) as unknown as Pick<WorkerStatus, 'docs' | 'embedding'>;
const col = (strategy: ColumnSpec['strategy'], retriever: ColumnSpec['retriever'] = 'vector'): ColumnSpec => ({ id: strategy, label: strategy, strategy, retriever, rerank: false });

describe('which status changes make the shown columns search again', () => {
  it('each column depends on its strategy\'s unit kind, from the registry', () => {
    expect(columnDependencies(status({ sentence: [3, 10], semantic: [1, 4] }), [col('semantic'), col('sentence')])).toBe('docs:2 semantic:1/4 sentence:3/10');
    expect(columnDependencies(status({ packed: [5, 6] }), [col('packed')])).toBe('docs:2 packed:5/6');
  });

  it('semantic vectors arriving change a semantic column\'s dependencies, not a sentence column\'s', () => {
    const before = status({ sentence: [10, 10], semantic: [0, 4] });
    const after = status({ sentence: [10, 10], semantic: [4, 4] });
    expect(columnDependencies(after, [col('semantic')])).not.toBe(columnDependencies(before, [col('semantic')]));
    expect(columnDependencies(after, [col('sentence')])).toBe(columnDependencies(before, [col('sentence')]));
  });

  it('contexts arriving change the Contextual chunks column\'s dependencies, and every column\'s while contextual retrieval is on', () => {
    const at = (version: number, contextual = false) => ({ ...status({ chunk: [2, 2] }), contexts: { version, written: {} }, structure: { contextual } as WorkerStatus['structure'] });
    expect(columnDependencies(at(3), [col('contextual', 'bm25')])).toBe('chunk:2 contexts:3 docs:2');
    expect(columnDependencies(at(4), [col('contextual', 'bm25')])).not.toBe(columnDependencies(at(3), [col('contextual', 'bm25')]));
    expect(columnDependencies(at(4), [col('naive', 'bm25')])).toBe(columnDependencies(at(3), [col('naive', 'bm25')]));
    expect(columnDependencies(at(4, true), [col('naive', 'bm25')])).toBe('chunk:2 contexts:4 docs:2');
  });

  it('the Contextual chunks column depends on the unit kind its parameters choose', () => {
    const s = status({ sentence: [3, 10], chunk: [2, 2] });
    expect(columnDependencies(s, [col('contextual')], retrievalParams({ contextual: { unit: 'sentence' } }))).toBe('contexts:0 docs:2 sentence:3/10');
    expect(columnDependencies(s, [col('contextual')], retrievalParams())).toBe('chunk:2/2 contexts:0 docs:2');
    const more = status({ sentence: [7, 10], chunk: [2, 2] });
    expect(columnDependencies(more, [col('contextual')], retrievalParams({ contextual: { unit: 'sentence' } }))).not.toBe(columnDependencies(s, [col('contextual')], retrievalParams({ contextual: { unit: 'sentence' } })));
  });

  it('a BM25 column depends on how many units there are (semantic chunks being cut), not on vectors', () => {
    expect(columnDependencies(status({ semantic: [2, 4] }), [col('semantic', 'bm25')])).toBe('docs:2 semantic:4');
    expect(columnDependencies(status({ semantic: [2, 4] }, 3), [col('semantic', 'bm25')])).toBe('docs:3 semantic:4');
  });
});
