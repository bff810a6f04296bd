import { useEffect, useId, useState } from 'react';
import { editDraft, openDraft, saveContext, saveDraft, savedDraft, stopDraft, syncDraft, useDocContext, writeDraft } from '../../state/doc-context';
import { useGeneration } from '../../state/generation';
import { useView } from '../../state/stores';
import type { DocSummary } from '../../worker/protocol';
import './doc-context.css';

/**
 * A document's title and summary for contextual headers (dsRAG's AutoContext): shown, written
 * by the chosen generator (streamed into the fields, editable), saved or dropped — the
 * writing and saving live in state/doc-context.ts. Everything here — document text and LLM
 * output — is rendered as text only.
 */
export function DocumentContextEditor({ doc }: { doc: DocSummary }) {
  // The fields are made when first opened and kept after (closing must not stop a generator
  // writing them): a list of thousands of documents would otherwise hold thousands of forms,
  // each with its draft and store subscriptions (half a gigabyte and seconds a render at 4,668).
  const [opened, setOpened] = useState(false);
  return (
    <details className="doc-context" onToggle={(e) => e.currentTarget.open && setOpened(true)}>
      <summary>Header title &amp; summary</summary>
      {opened && <ContextFields doc={doc} />}
    </details>
  );
}

function ContextFields({ doc }: { doc: DocSummary }) {
  const ids = useId();
  const generator = useGeneration((s) => s.generator);
  const headers = useView((s) => s.view.structure.headers);
  const context = doc.context;
  const { title, summary, phase, error, note } = useDocContext((s) => s[doc.id]) ?? savedDraft(context);

  useEffect(() => {
    openDraft(doc.id, context);
    return () => stopDraft(doc.id);
  }, [doc.id]);

  // A saved (or dropped) context replaces the fields, unless the generator is writing.
  const savedKey = `${context?.title ?? ''}\u0000${context?.summary ?? ''}\u0000${context?.by ?? ''}`;
  useEffect(() => syncDraft(doc.id, context), [savedKey]);

  const busy = phase !== 'idle';
  const writing = phase === 'reading' || phase === 'title' || phase === 'summary';
  const dirty = title.trim() !== (context?.title ?? '') || summary.trim() !== (context?.summary ?? '');

  const who = context
    ? context.by === 'user'
      ? 'set by you'
      : `written by ${context.by}`
    : `none: headers use the document’s own title ‘${doc.title}’`;

  return (
    <div className="dc-body" role="group" aria-label={`Header title and summary of ${doc.title}`}>
      <p className="dc-who">
        Current: <span className="dc-by">{who}</span>
      </p>
      {!headers.enabled ? (
        <p className="dc-hint">Contextual headers are off in the parameters: this title and summary change retrieval only when they are on.</p>
      ) : !headers.title ? (
        <p className="dc-hint">Headers do not hold the title now (parameters): this title and summary are not used until “title” is on.</p>
      ) : null}
      <label className="dc-field" htmlFor={`${ids}-title`}>
        <span>Title</span>
        <input
          id={`${ids}-title`}
          type="text"
          aria-label="Header title"
          value={title}
          placeholder={doc.title}
          readOnly={writing}
          onChange={(e) => editDraft(doc.id, { title: e.target.value })}
        />
      </label>
      <label className="dc-field" htmlFor={`${ids}-summary`}>
        <span>Summary</span>
        <textarea
          id={`${ids}-summary`}
          aria-label="Header summary"
          rows={3}
          value={summary}
          placeholder="This document is about: …"
          readOnly={writing}
          onChange={(e) => editDraft(doc.id, { summary: e.target.value })}
        />
      </label>
      <div className="dc-actions">
        {writing ? (
          <button type="button" onClick={() => stopDraft(doc.id)}>
            Stop
          </button>
        ) : (
          <button type="button" disabled={!generator || busy} onClick={() => void writeDraft(doc)}>
            {generator ? `Write with ${generator.label}` : 'Write with a generator'}
          </button>
        )}
        <button type="button" disabled={busy || !dirty} onClick={() => void saveDraft(doc.id)}>
          Save
        </button>
        <button type="button" disabled={busy || !context} onClick={() => void saveContext(doc.id, null)}>
          Use the document’s own title
        </button>
      </div>
      {!generator && <p className="dc-hint">To write them with an LLM, choose one in the Generator panel.</p>}
      {phase === 'reading' && <p className="dc-status">Reading the document…</p>}
      {phase === 'title' && <p className="dc-status">Writing the title…</p>}
      {phase === 'summary' && <p className="dc-status">Writing the summary…</p>}
      {phase === 'saving' && <p className="dc-status">Saving and embedding again…</p>}
      {note && !busy && <p className="dc-status">{note}</p>}
      {error && (
        <p className="dc-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
