import type { ChatMessage } from '../../core/generate/openai';
import { useEffect, useId, useRef, useState } from 'react';
import { ApproxTokenCounter } from '../../core/segment/tokens';
import { cleanSummary, cleanTitle, summaryMessages, titleMessages, TITLE_MAX_CONTENT_TOKENS } from '../../core/generate/doc-context';
import { getDocumentText, setDocumentContext } from '../../state/controller';
import { useGeneration } from '../../state/generation';
import { useView } from '../../state/stores';
import type { DocumentContext } from '../../core/types';
import type { DocSummary } from '../../worker/protocol';
import './doc-context.css';

/** Tokens of the generator's context kept for the prompt's instructions and the reply. */
const RESERVED_TOKENS = 600;
const TITLE_REPLY_TOKENS = 64;
const SUMMARY_REPLY_TOKENS = 160;
/**
 * Approx: the Generator interface has no synchronous tokenizer (an endpoint's is not in the
 * browser at all), so the document text is cut with the approximate counter; RESERVED_TOKENS
 * leaves room for its error.
 */
const approx = new ApproxTokenCounter();

type Phase = 'idle' | 'reading' | 'title' | 'summary' | 'saving';

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * A document's title and summary for contextual headers (dsRAG's AutoContext): shown, written
 * by the chosen generator (streamed into the fields, editable), saved or dropped. Everything
 * here — document text and LLM output — is rendered as text only.
 */
export function DocumentContextEditor({ doc }: { doc: DocSummary }) {
  const ids = useId();
  const generator = useGeneration((s) => s.generator);
  const headers = useView((s) => s.view.structure.headers);
  const context = doc.context;
  const [title, setTitle] = useState(context?.title ?? '');
  const [summary, setSummary] = useState(context?.summary ?? '');
  /** The generator whose text is in the fields, while the user has not changed it. */
  const [writtenBy, setWrittenBy] = useState<string | null>(null);
  const [phase, setPhase] = useState<Phase>('idle');
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const abort = useRef<AbortController | null>(null);

  // A saved (or dropped) context replaces the fields, unless the user is writing.
  const savedKey = `${context?.title ?? ''}\u0000${context?.summary ?? ''}\u0000${context?.by ?? ''}`;
  useEffect(() => {
    if (abort.current) return;
    setTitle(context?.title ?? '');
    setSummary(context?.summary ?? '');
    setWrittenBy(null);
  }, [savedKey]);

  useEffect(() => () => abort.current?.abort(), []);

  const busy = phase !== 'idle';
  const writing = phase === 'reading' || phase === 'title' || phase === 'summary';
  const dirty = title.trim() !== (context?.title ?? '') || summary.trim() !== (context?.summary ?? '');

  async function write(): Promise<void> {
    const g = useGeneration.getState().generator;
    if (!g || busy) return;
    const ctrl = new AbortController();
    abort.current = ctrl;
    setError(null);
    setNote(null);
    setWrittenBy(null);
    try {
      setPhase('reading');
      const text = await getDocumentText(doc.id);
      const maxTokens = Math.min(TITLE_MAX_CONTENT_TOKENS, g.contextTokens - RESERVED_TOKENS);
      if (maxTokens < 100) throw new Error(`${g.label} has a context of ${g.contextTokens} tokens: too small to read the document.`);
      const options = { counter: approx, maxTokens, language: doc.language };

      setPhase('title');
      setTitle('');
      setSummary('');
      // Streams a reply into a field as it is written.
      const streamInto = (messages: ChatMessage[], maxTokens: number, set: (text: string) => void) => {
        let raw = '';
        return g.stream(messages, {
          maxTokens,
          temperature: 0,
          signal: ctrl.signal,
          onToken: (piece) => {
            raw += piece;
            set(raw);
          },
        });
      };
      const t = await streamInto(titleMessages(text, options), TITLE_REPLY_TOKENS, setTitle);
      const newTitle = t.stopped ? t.text.trim() : cleanTitle(t.text);
      setTitle(newTitle);
      if (t.stopped) {
        setNote('Stopped: the fields hold what was written so far.');
        return;
      }
      if (!newTitle) throw new Error(`${g.label} gave no title.`);

      setPhase('summary');
      const s = await streamInto(summaryMessages(text, newTitle, options), SUMMARY_REPLY_TOKENS, setSummary);
      const newSummary = s.stopped ? s.text.trim() : cleanSummary(s.text);
      setSummary(newSummary);
      if (s.stopped) {
        setNote('Stopped: the fields hold what was written so far.');
        return;
      }
      setWrittenBy(g.label);
      setNote(
        s.finishReason === 'length'
          ? 'The summary was cut at its token limit: check it before saving.'
          : 'Written: check and edit the fields, then save to use them in headers.',
      );
    } catch (e) {
      setError(errorText(e));
    } finally {
      abort.current = null;
      setPhase('idle');
    }
  }

  async function save(next: DocumentContext | null): Promise<void> {
    setError(null);
    setNote(null);
    setPhase('saving');
    try {
      await setDocumentContext(doc.id, next);
      setNote(next ? 'Saved: its blocks were embedded again with this header.' : 'Headers use the document’s own title again.');
    } catch (e) {
      setError(errorText(e));
    } finally {
      setPhase('idle');
    }
  }

  function onSave(): void {
    const t = title.trim();
    const s = summary.trim();
    if (!t && !s) return void save(null);
    const next: DocumentContext = { by: writtenBy ?? 'user' };
    if (t) next.title = t;
    if (s) next.summary = s;
    void save(next);
  }

  const who = context
    ? context.by === 'user'
      ? 'set by you'
      : `written by ${context.by}`
    : `none: headers use the document’s own title ‘${doc.title}’`;

  return (
    <details className="doc-context">
      <summary>Header title &amp; summary</summary>
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
            onChange={(e) => {
              setTitle(e.target.value);
              setWrittenBy(null);
            }}
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
            onChange={(e) => {
              setSummary(e.target.value);
              setWrittenBy(null);
            }}
          />
        </label>
        <div className="dc-actions">
          {writing ? (
            <button type="button" onClick={() => abort.current?.abort()}>
              Stop
            </button>
          ) : (
            <button type="button" disabled={!generator || busy} onClick={() => void write()}>
              {generator ? `Write with ${generator.label}` : 'Write with a generator'}
            </button>
          )}
          <button type="button" disabled={busy || !dirty} onClick={onSave}>
            Save
          </button>
          <button type="button" disabled={busy || !context} onClick={() => void save(null)}>
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
    </details>
  );
}
