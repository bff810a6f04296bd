import { describe, expect, it } from 'vitest';
import { staticSuggestion } from './static-suggestion';

describe('suggesting a static model for a large corpus', () => {
  it('above 20,000 sentences with a transformer model: the retrieval table for English, the multilingual one otherwise', () => {
    expect(staticSuggestion(20_000, ['en'], 'Xenova/all-MiniLM-L6-v2')).toBeNull();
    expect(staticSuggestion(42_000, ['en', 'en-US'], 'Xenova/all-MiniLM-L6-v2')).toMatchObject({ preset: { id: 'minishlab/potion-retrieval-32M' }, minutes: 10 });
    expect(staticSuggestion(42_000, ['en', 'pt'], 'Xenova/multilingual-e5-small')?.preset.id).toBe('minishlab/potion-multilingual-128M');
    // An unknown model (no preset) is taken as a transformer.
    expect(staticSuggestion(30_000, ['en'], 'someone/big-model')?.minutes).toBe(7);
  });

  it('not when a static or test model is chosen', () => {
    expect(staticSuggestion(100_000, ['en'], 'minishlab/potion-base-8M')).toBeNull();
    expect(staticSuggestion(100_000, ['en'], 'rag-lab/test-embedder')).toBeNull();
  });
});
