/**
 * When to suggest a static (Model2Vec) preset, and which. Above 20,000 sentences a transformer
 * model keeps the vector columns incomplete for many minutes in a 2-core tab (about 70
 * sentences a second for MiniLM, issue 31's measurement, and leaves, chunks, packed and
 * semantic chunks add roughly as much text again), while a static model embeds 100,000
 * sentences in under a minute (npm run bench, row 10).
 */
import { findPreset, type EmbeddingPreset } from '../../core/embed/presets';

export const LARGE_CORPUS_SENTENCES = 20_000;
/** MiniLM-sized transformer in a 2-core WASM tab (issue 31). */
export const TRANSFORMER_SENTENCES_PER_SECOND = 70;

/** The static preset to suggest for this corpus and chosen model, or null (small corpus, or a static or test model chosen). */
export function staticSuggestion(sentences: number, languages: readonly string[], model: string): { preset: EmbeddingPreset; minutes: number } | null {
  if (sentences <= LARGE_CORPUS_SENTENCES) return null;
  const chosen = findPreset(model);
  if (chosen?.architecture === 'static' || chosen?.testModel) return null;
  // potion-retrieval-32M is tuned for retrieval but English; any other language gets the multilingual table.
  const multilingual = languages.some((l) => !/^en\b/i.test(l));
  return { preset: findPreset(multilingual ? 'potion-multilingual-128M' : 'potion-retrieval-32M')!, minutes: Math.round(sentences / TRANSFORMER_SENTENCES_PER_SECOND / 60) };
}
