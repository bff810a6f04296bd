/**
 * A large corpus with a transformer model chosen: suggest a static (Model2Vec) preset and say
 * what it trades (the threshold and why: static-suggestion.ts).
 */
import { useCorpus } from '../../state/stores';
import { staticSuggestion, TRANSFORMER_SENTENCES_PER_SECOND } from './static-suggestion';

export function LargeCorpusHint({ model, onPick }: { model: string; onPick: (id: string) => void }) {
  const docs = useCorpus((s) => s.status?.docs);
  const sentences = docs?.reduce((n, d) => n + d.sentences, 0) ?? 0;
  const s = staticSuggestion(sentences, docs?.map((d) => d.language) ?? [], model);
  if (!s) return null;
  return (
    <p className="m-small m-hint" role="note" data-testid="large-corpus-hint">
      This corpus has {sentences.toLocaleString('en-US')} sentences: a transformer model needs about {s.minutes} min for the sentences alone in a 2-core tab (about {TRANSFORMER_SENTENCES_PER_SECOND} a second), more for
      leaves and chunks. A static model such as {s.preset.name} embeds them in seconds; it trades retrieval quality, a few points below MiniLM on MTEB (potion-retrieval-32M 35.1 vs all-MiniLM-L6-v2 42.9, per the model cards).{' '}
      <button type="button" className="link" onClick={() => onPick(s.preset.id)}>
        Use {s.preset.name}
      </button>
    </p>
  );
}
