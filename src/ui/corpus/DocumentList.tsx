import { memo } from 'react';
import { removeDocument } from '../../state/controller';
import { useCorpus } from '../../state/stores';
import type { DocSummary, FileProgress, ModelStatus } from '../../worker/protocol';
import { DocumentContextEditor } from './DocumentContextEditor';
import { DocumentLanguage, languageUnsure } from './DocumentLanguage';

function stageText(p: FileProgress | undefined, d: DocSummary | undefined, embedding: boolean, etaS: number | undefined, model?: ModelStatus['state']): string {
  if (p?.ocr && !d && p.stage === 'parse') {
    const left = Math.round(p.ocr.remainingMs / 1000);
    return `OCR: page ${p.ocr.page} of ${p.ocr.pages} read${p.ocr.page < p.ocr.pages ? ` · ~${left}s left` : ''}`;
  }
  if (p && !d) return { parse: 'parsing…', split: 'splitting…', done: 'split', failed: 'failed', duplicate: 'duplicate' }[p.stage];
  if (!d) return '';
  const { done, total } = d.embedded;
  if (total === 0 || done >= total) return done > 0 ? 'ready' : embedding ? 'waiting to embed' : 'BM25 ready';
  // No model to embed with: say why instead of a percentage that never moves.
  if (!embedding) return model === 'failed' ? `BM25 only: no vectors (${done}/${total} units) — the embedding model could not load (see Models)` : model === 'loading' ? `waiting for the embedding model (${done}/${total} units embedded)` : `BM25 only: no embedding model chosen (${done}/${total} units embedded)`;
  const pct = Math.floor((done / total) * 100);
  return `embedding ${pct}% (${done}/${total} units)${etaS !== undefined ? ` · ~${etaS}s left` : ''}`;
}

/** What the list calls each format. */
const FORMAT_NAMES: Record<string, string> = {
  pdf: 'PDF', md: 'Markdown', txt: 'text', html: 'HTML', docx: 'Word', odt: 'OpenDocument text', pptx: 'PowerPoint', odp: 'OpenDocument slides',
  xlsx: 'Excel', ods: 'OpenDocument sheet', csv: 'CSV', tsv: 'TSV', epub: 'EPUB', image: 'image (OCR)',
};

/** Each document with its own progress (parse → split → embed), counts and removal. */
export function DocumentList() {
  const status = useCorpus((s) => s.status);
  const files = useCorpus((s) => s.files);
  const docs = status?.docs ?? [];
  const byFile = new Map(docs.map((d) => [d.fileName, d]));
  const pendingFiles = Object.values(files).filter((f) => !byFile.has(f.file) && f.stage !== 'failed' && f.stage !== 'duplicate');
  const model = status?.embedder.state;
  const embedding = model === 'ready';
  const eta = status?.embedding.etaS;
  if (!docs.length && !pendingFiles.length) return <p className="empty">No documents yet.</p>;
  return (
    <ul className="doclist" aria-label="Indexed documents">
      {pendingFiles.map((p) => (
        <li key={`pending-${p.file}`} className="doc pending">
          <span className="doc-title">{p.file}</span>
          <span className="doc-stage">{stageText(p, undefined, embedding, eta, model)}</span>
        </li>
      ))}
      {docs.map((d) => (
        // The eta only for documents still embedding: a finished one's item stays as it is.
        <DocItem key={d.id} d={d} progress={files[d.fileName]} embedding={embedding} model={model} eta={d.embedded.done < d.embedded.total ? eta : undefined} />
      ))}
    </ul>
  );
}

/**
 * One document. Memoised: after a big import hundreds of them are listed, and a progress
 * status that leaves a document unchanged (the controller keeps its object) must not
 * re-render it — that rendering, not the worker, kept a click waiting.
 */
const DocItem = memo(function DocItem({ d, progress, embedding, model, eta }: { d: DocSummary; progress: FileProgress | undefined; embedding: boolean; model: ModelStatus['state'] | undefined; eta: number | undefined }) {
  const frac = d.embedded.total ? d.embedded.done / d.embedded.total : 0;
  return (
    <li className="doc" data-doc-id={d.id}>
      <div className="doc-head">
        <span className="doc-title" title={d.fileName}>
          {d.title}
        </span>
        {/* The name starts with the visible word (voice control users say what they see). */}
        <button type="button" className="link" onClick={() => void removeDocument(d.id)}>
          remove<span className="visually-hidden"> {d.title}</span>
        </button>
      </div>
      <div className="doc-meta">
        {d.fileName} · {FORMAT_NAMES[d.format] ?? d.format} · {d.language}{languageUnsure(d) ? ' (unsure)' : ''} · {d.sentences} sentences{d.pages ? ` · ${d.pages} ${d.format === 'pptx' || d.format === 'odp' ? 'slides' : 'pages'}` : ''}
        {d.sections ? ` · ${d.sections} sections` : ''}
      </div>
      {embedding && <progress max={1} value={frac} aria-label={`Embedding ${d.title}`} />}
      <div className="doc-stage">{stageText(progress, d, embedding, eta, model)}</div>
      {d.warnings.map((w) => (
        <div key={w} className="doc-warning">
          {w}
        </div>
      ))}
      <DocumentLanguage doc={d} />
      <DocumentContextEditor doc={d} />
    </li>
  );
});
