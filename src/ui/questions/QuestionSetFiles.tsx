import { useState } from 'react';
import type { Document } from '../../core/types';
import { labWorker } from '../../state/controller';
import { download } from '../../state/export';
import { errorText } from '../../state/messages';
import { exportQuestionFile, FORMAT_LABELS, importQuestionFiles, SET_FORMATS, type SetFormat } from '../../state/question-files';
import { refreshQuestions, useQuestionSet } from '../../state/question-set';
import { useCorpus } from '../../state/stores';

/** Every current document, whole (formats carry or look up their text). */
async function currentDocuments(): Promise<Document[]> {
  const lab = labWorker();
  if (!lab) throw new Error('the lab has not started');
  const ids = (useCorpus.getState().status?.docs ?? []).map((d) => d.id);
  return Promise.all(ids.map((docId) => lab.request('getDocument', { docId }).promise));
}

interface Exported {
  format: SetFormat;
  fileName: string;
  url: string;
  size: number;
  notes: string[];
}

interface Imported {
  fileName: string;
  format: SetFormat;
  added: number;
  questions: string[];
  /** The format's skipped lines, then the set's refusals: every one listed. */
  skipped: string[];
}

/**
 * Export the question set in the lab's JSONL, SQuAD JSON, BEIR, Ragas or LlamaIndex format (made
 * in this tab and downloaded from a blob: URL — nothing is uploaded), or import any of them onto
 * the current documents, every skipped line counted and listed.
 */
export function QuestionSetFiles() {
  const count = useQuestionSet((s) => s.set?.questions.length ?? 0);
  const hasDocs = useCorpus((s) => (s.status?.docs.length ?? 0) > 0);
  const [format, setFormat] = useState<SetFormat>('jsonl');
  const [importFormat, setImportFormat] = useState<SetFormat | 'auto'>('auto');
  const [busy, setBusy] = useState(false);
  const [exported, setExported] = useState<Exported | null>(null);
  const [imported, setImported] = useState<Imported | null>(null);
  const [error, setError] = useState<string | null>(null);

  const onExport = async () => {
    setBusy(true);
    setError(null);
    try {
      const set = useQuestionSet.getState().set;
      const f = exportQuestionFile(format, { questions: set?.questions ?? [] }, await currentDocuments());
      if (exported) URL.revokeObjectURL(exported.url);
      const url = URL.createObjectURL(new Blob([f.bytes], { type: f.mime }));
      setExported({ format, fileName: f.fileName, url, size: f.bytes.length, notes: f.notes });
      download(url, f.fileName);
    } catch (e) {
      setError(`Export failed: ${errorText(e)}`);
    } finally {
      setBusy(false);
    }
  };

  const onImport = async (list: FileList | null) => {
    if (!list?.length) return;
    setBusy(true);
    setError(null);
    setImported(null);
    try {
      const files = await Promise.all([...list].map(async (f) => ({ name: f.name, bytes: new Uint8Array(await f.arrayBuffer()) })));
      const { format: read, result, fileName } = importQuestionFiles(files, await currentDocuments(), importFormat);
      const lab = labWorker();
      if (!lab) throw new Error('the lab has not started');
      const questions = result.set.questions.map(({ id: _id, ...q }) => q);
      const r = questions.length ? await lab.request('questionsAdd', { questions }).promise : { added: [], skipped: [] };
      setImported({ fileName, format: read, added: r.added.length, questions: questions.map((q) => q.question), skipped: [...result.skipped, ...r.skipped] });
      await refreshQuestions();
    } catch (e) {
      setError(`Import failed: ${errorText(e)}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="q-files" role="group" aria-label="Question set files">
      <h3>Export or import the question set</h3>
      <div className="g-row">
        <select aria-label="Question set format" value={format} onChange={(e) => setFormat(e.target.value as SetFormat)}>
          {SET_FORMATS.map((f) => (
            <option key={f} value={f}>
              {FORMAT_LABELS[f]}
            </option>
          ))}
        </select>
        <button type="button" disabled={busy || count === 0} onClick={() => void onExport()}>
          Export {count} question{count === 1 ? '' : 's'}
        </button>
      </div>
      {exported && (
        <p className="g-small" aria-label="Exported question set">
          <a href={exported.url} download={exported.fileName}>
            {exported.fileName}
          </a>{' '}
          ({exported.size.toLocaleString('en')} bytes, made in this tab; nothing was uploaded)
        </p>
      )}
      {exported?.notes.map((n) => (
        <p key={n} className="g-warn">
          {n}
        </p>
      ))}
      <div className="g-row">
        <select aria-label="Import format" value={importFormat} onChange={(e) => setImportFormat(e.target.value as SetFormat | 'auto')}>
          <option value="auto">Detect the format</option>
          {SET_FORMATS.map((f) => (
            <option key={f} value={f}>
              {FORMAT_LABELS[f]}
            </option>
          ))}
        </select>
        <label className="g-check">
          <span>Import onto the current documents</span>
          <input
            type="file"
            multiple
            aria-label="Import a question set"
            accept=".jsonl,.json,.zip,.tsv"
            disabled={busy || !hasDocs}
            onChange={(e) => {
              void onImport(e.target.files);
              e.target.value = '';
            }}
          />
        </label>
      </div>
      {error && (
        <p className="g-error" role="alert">
          {error}
        </p>
      )}
      {imported && (
        <div aria-label="Imported question set">
          <p className="g-ready" role="status">
            Imported {imported.added} question{imported.added === 1 ? '' : 's'} from {imported.fileName}, read as {FORMAT_LABELS[imported.format]}; {imported.skipped.length} skipped.
          </p>
          <details className="a-details">
            <summary>Questions read ({imported.questions.length})</summary>
            <ol className="q-list" aria-label="Imported questions">
              {imported.questions.map((q, i) => (
                <li key={i}>{q}</li>
              ))}
            </ol>
          </details>
          {imported.skipped.length > 0 && (
            <details className="a-details" open>
              <summary>Skipped ({imported.skipped.length})</summary>
              <ul className="q-list" aria-label="Skipped lines">
                {imported.skipped.map((s, i) => (
                  <li key={i}>{s}</li>
                ))}
              </ul>
            </details>
          )}
        </div>
      )}
    </div>
  );
}
