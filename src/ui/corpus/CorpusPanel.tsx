import { useState } from 'react';
import { DOCUMENT_EXTENSIONS } from '../../core/documents/formats';
import { OCR_LANGUAGES } from '../../core/documents/ocr-languages';
import { useBundle } from '../../state/bundle-store';
import { addFiles, addText, cancelIndexing, cancelLoading, clearCorpus, dismissProblems, loadAnyway, retryFailed, setEmbedding } from '../../state/controller';
import { loadSampleCorpus } from '../../state/sample-corpus';
import { useCorpus } from '../../state/stores';
import { BundleImport } from './BundleImport';
import { DocumentList } from './DocumentList';

/** Every extension a loader reads, and bundles (.zip). */
const ACCEPT = [...DOCUMENT_EXTENSIONS, 'zip'].map((e) => `.${e}`).join(',');
/** The languages offered for dropped files: those OCR can read (detection still decides when left on "detect"). */
const LANGUAGES = Object.entries(OCR_LANGUAGES).slice(0, 6);

/** Where documents come in: drop, pick, paste, or the sample corpus. */
export function CorpusPanel() {
  const [over, setOver] = useState(false);
  const [paste, setPaste] = useState('');
  const [language, setLanguage] = useState('');
  const add = (files: File[]) => void addFiles(files, language ? { language } : {});
  const indexing = useCorpus((s) => s.indexing);
  const problems = useCorpus((s) => s.problems);
  const retry = useCorpus((s) => s.retry);
  const oversized = useCorpus((s) => s.oversized);
  const removing = useCorpus((s) => s.removing);
  // A bundle's import can be cancelled until its corpus is in place (then it is only being stored).
  const loading = useBundle((s) => (s.importing && s.importing.progress.phase !== 'store' ? s.importing.file : null));
  const hasDocs = useCorpus((s) => (s.status?.docs.length ?? 0) > 0);
  const embedding = useCorpus((s) => s.status?.embedding);
  const embedderReady = useCorpus((s) => s.status?.embedder.state === 'ready');
  return (
    <section className="panel corpus" aria-label="Documents">
      <h2>Documents</h2>
      <div
        className={`dropzone${over ? ' over' : ''}`}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(e) => {
          e.preventDefault();
          setOver(false);
          add([...e.dataTransfer.files]);
        }}
      >
        <p>
          Drop PDF, Word, OpenDocument, PowerPoint, Excel, CSV, EPUB, Markdown, text or HTML files, scanned pages and images (read by OCR), or a bundle (.zip) exported by
          this lab
        </p>
        <label className="button">
          Choose files
          <input type="file" multiple accept={ACCEPT} hidden onChange={(e) => (add([...(e.target.files ?? [])]), (e.target.value = ''))} />
        </label>
        <label className="small">
          Language{' '}
          <select value={language} onChange={(e) => setLanguage(e.target.value)} title="The language of the files you add next: OCR reads scanned pages and images in it (English when detected)">
            <option value="">detect (OCR: English)</option>
            {LANGUAGES.map(([tag, l]) => (
              <option key={tag} value={tag}>
                {l.name}
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={() => void loadSampleCorpus()} disabled={indexing}>
          Load sample corpus
        </button>
        <a className="small" href="./samples/ATTRIBUTION.md" target="_blank" rel="noreferrer">
          sample sources and licences
        </a>
      </div>
      <details className="paste">
        <summary>Paste text</summary>
        <textarea aria-label="Paste text" value={paste} onChange={(e) => setPaste(e.target.value)} placeholder="Plain text or Markdown" />
        <button type="button" disabled={!paste.trim()} onClick={() => (void addText(paste), setPaste(''))}>
          Add pasted text
        </button>
      </details>
      <BundleImport />
      {loading && (
        <button type="button" className="cancel" onClick={cancelLoading} aria-label={`Cancel loading ${loading}`}>
          Cancel loading
        </button>
      )}
      {(indexing || embedding?.running) && (
        <button type="button" className="cancel" onClick={cancelIndexing}>
          {indexing ? 'Cancel indexing' : 'Pause embedding'}
        </button>
      )}
      {embedding?.paused && embedderReady && (
        <p className="small">
          Embedding is paused: BM25 and the vectors made so far are used.{' '}
          <button type="button" className="link" onClick={() => void setEmbedding(true)}>
            Resume embedding
          </button>
        </p>
      )}
      {problems.length > 0 && (
        <div className="problems" role="alert">
          <ul>
            {problems.map((p, i) => (
              <li key={i}>{p}</li>
            ))}
          </ul>
          {retry.length > 0 && (
            <button type="button" onClick={retryFailed}>
              Retry {retry.length === 1 ? retry[0]!.name : `${retry.length} files`}
            </button>
          )}{' '}
          {oversized.length > 0 && (
            <button type="button" onClick={loadAnyway} title="The estimate may be wrong, and a big machine may hold it; the tab may run out of memory">
              Load {oversized.length === 1 ? oversized[0]!.name : `${oversized.length} files`} anyway
            </button>
          )}{' '}
          <button type="button" className="link" onClick={dismissProblems}>
            dismiss
          </button>
        </div>
      )}
      {/* Said until the worker has stored the corpus without them (a reload meanwhile removes them again). */}
      <p className="small removing" role="status">
        {removing.length > 0 && `Removing ${removing.join(', ')}…`}
      </p>
      <DocumentList />
      {hasDocs && (
        <button type="button" className="link danger" onClick={() => confirm('Remove every document and its vectors from this browser?') && void clearCorpus()}>
          Clear everything
        </button>
      )}
    </section>
  );
}
