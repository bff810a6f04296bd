import { EMBEDDING_MODELS, RERANKER_MODELS } from '../../core/embed/models';
import type { Dtype } from '../../worker/protocol';
import { ModelPicker, type PickerText } from './ModelPicker';
import './models.css';

const EMBEDDER_TEXT: PickerText = {
  legend: 'Embedder',
  names: { model: 'Embedding model', source: 'Model source', dtype: 'Model precision', device: 'Model device' },
  none: 'None (BM25 only)',
  meanwhile: 'BM25 results are shown meanwhile',
  noneReason: 'no embedding model is chosen.',
  progressName: 'Embedding model download',
};

const RERANKER_TEXT: PickerText = {
  legend: 'Reranking',
  names: { model: 'Reranker', source: 'Reranker source', dtype: 'Reranker precision', device: 'Reranker device', load: 'Load reranker' },
  none: 'None (no reranking)',
  meanwhile: 'The reranked column shows hybrid order meanwhile',
  noneReason: 'no reranker is chosen.',
  progressName: 'Reranker download',
};

const EMBEDDER_DTYPES: Dtype[] = ['q8', 'fp32', 'fp16', 'q4'];
// The worker loads rerankers as q8 or fp32 only.
const RERANKER_DTYPES: Dtype[] = ['q8', 'fp32'];

/** Embedding model and reranker: what to load, from where, and how loading goes. */
export function ModelPanel() {
  return (
    <section className="panel models" aria-label="Models">
      <h2>Models</h2>
      <ModelPicker role="embedder" models={EMBEDDING_MODELS} dtypes={EMBEDDER_DTYPES} text={EMBEDDER_TEXT} />
      <ModelPicker role="reranker" models={RERANKER_MODELS} dtypes={RERANKER_DTYPES} text={RERANKER_TEXT} />
    </section>
  );
}
