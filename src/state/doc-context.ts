/**
 * Writing a document's header title and summary (dsRAG's AutoContext) with the chosen
 * generator: read the document, stream a title into its field, then a summary that knows the
 * title; stop at any point; save (the document's units are embedded again) or drop. One
 * draft per document; the editor component only renders a draft and dispatches.
 */
import { create } from 'zustand';
import type { ChatMessage } from '../core/generate/openai';
import { cleanSummary, cleanTitle, summaryMessages, titleMessages, TITLE_MAX_CONTENT_TOKENS } from '../core/generate/doc-context';
import { ApproxTokenCounter } from '../core/segment/tokens';
import type { DocumentContext } from '../core/types';
import { getDocumentText, setDocumentContext } from './controller';
import { useGeneration } from './generation';
import { errorText } from './messages';

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

export type DocContextPhase = 'idle' | 'reading' | 'title' | 'summary' | 'saving';

export interface DocContextDraft {
  title: string;
  summary: string;
  /** The generator whose text is in the fields, while the user has not changed it. */
  writtenBy: string | null;
  phase: DocContextPhase;
  error: string | null;
  note: string | null;
}

/** Drafts by document id. */
export const useDocContext = create<Record<string, DocContextDraft>>(() => ({}));

/** The draft a document starts from: its saved context. */
export function savedDraft(context: DocumentContext | undefined): DocContextDraft {
  return { title: context?.title ?? '', summary: context?.summary ?? '', writtenBy: null, phase: 'idle', error: null, note: null };
}

/** Writing in progress, by document id (the Stop button aborts it). */
const writing = new Map<string, AbortController>();

function put(docId: string, change: Partial<DocContextDraft>): void {
  useDocContext.setState((s) => ({ [docId]: { ...(s[docId] ?? savedDraft(undefined)), ...change } }));
}

function draft(docId: string): DocContextDraft {
  return useDocContext.getState()[docId] ?? savedDraft(undefined);
}

/** The editor opened: a fresh draft from the saved context (unless the generator is writing into it). */
export function openDraft(docId: string, context: DocumentContext | undefined): void {
  if (!writing.has(docId)) useDocContext.setState({ [docId]: savedDraft(context) });
}

/** A saved (or dropped) context replaces the fields, unless the generator is writing. */
export function syncDraft(docId: string, context: DocumentContext | undefined): void {
  if (!writing.has(docId)) put(docId, { title: context?.title ?? '', summary: context?.summary ?? '', writtenBy: null });
}

/** The user types in a field: the text is theirs now. */
export function editDraft(docId: string, change: { title?: string } | { summary?: string }): void {
  put(docId, { ...change, writtenBy: null });
}

/** Stops the generator writing (what it wrote so far stays in the fields). */
export function stopDraft(docId: string): void {
  writing.get(docId)?.abort();
}

/** Asks the chosen generator for the document's title, then its summary, streamed into the fields. */
export async function writeDraft(doc: { id: string; language: string }): Promise<void> {
  const g = useGeneration.getState().generator;
  if (!g || draft(doc.id).phase !== 'idle') return;
  const ctrl = new AbortController();
  writing.set(doc.id, ctrl);
  put(doc.id, { error: null, note: null, writtenBy: null });
  try {
    put(doc.id, { phase: 'reading' });
    const text = await getDocumentText(doc.id);
    const maxTokens = Math.min(TITLE_MAX_CONTENT_TOKENS, g.contextTokens - RESERVED_TOKENS);
    if (maxTokens < 100) throw new Error(`${g.label} has a context of ${g.contextTokens} tokens: too small to read the document.`);
    const options = { counter: approx, maxTokens, language: doc.language };

    put(doc.id, { phase: 'title', title: '', summary: '' });
    // Streams a reply into a field as it is written.
    const streamInto = (messages: ChatMessage[], replyTokens: number, field: 'title' | 'summary') => {
      let raw = '';
      return g.stream(messages, {
        maxTokens: replyTokens,
        temperature: 0,
        signal: ctrl.signal,
        onToken: (piece) => {
          raw += piece;
          put(doc.id, { [field]: raw });
        },
      });
    };
    const t = await streamInto(titleMessages(text, options), TITLE_REPLY_TOKENS, 'title');
    const title = t.stopped ? t.text.trim() : cleanTitle(t.text);
    put(doc.id, { title });
    if (t.stopped) return put(doc.id, { note: 'Stopped: the fields hold what was written so far.' });
    if (!title) throw new Error(`${g.label} gave no title.`);

    put(doc.id, { phase: 'summary' });
    const s = await streamInto(summaryMessages(text, title, options), SUMMARY_REPLY_TOKENS, 'summary');
    const summary = s.stopped ? s.text.trim() : cleanSummary(s.text);
    put(doc.id, { summary });
    if (s.stopped) return put(doc.id, { note: 'Stopped: the fields hold what was written so far.' });
    put(doc.id, {
      writtenBy: g.label,
      note: s.finishReason === 'length' ? 'The summary was cut at its token limit: check it before saving.' : 'Written: check and edit the fields, then save to use them in headers.',
    });
  } catch (e) {
    put(doc.id, { error: errorText(e) });
  } finally {
    writing.delete(doc.id);
    put(doc.id, { phase: 'idle' });
  }
}

/** Saves a context (null: the document's own title again); its units are embedded again. */
export async function saveContext(docId: string, next: DocumentContext | null): Promise<void> {
  put(docId, { error: null, note: null, phase: 'saving' });
  try {
    await setDocumentContext(docId, next);
    put(docId, { note: next ? 'Saved: its blocks were embedded again with this header.' : 'Headers use the document’s own title again.' });
  } catch (e) {
    put(docId, { error: errorText(e) });
  } finally {
    put(docId, { phase: 'idle' });
  }
}

/** Saves the fields as they are; both empty means the document's own title. */
export function saveDraft(docId: string): Promise<void> {
  const d = draft(docId);
  const title = d.title.trim();
  const summary = d.summary.trim();
  if (!title && !summary) return saveContext(docId, null);
  const next: DocumentContext = { by: d.writtenBy ?? 'user' };
  if (title) next.title = title;
  if (summary) next.summary = summary;
  return saveContext(docId, next);
}
