import { useEffect, useState, type RefObject } from 'react';
import type { Document } from '../../core/types';
import { markAnswer, questionFor, useQuestionSet } from '../../state/question-set';
import { useView } from '../../state/stores';
import type { BlockView } from '../../worker/protocol';
import { MarkAnswer } from './MarkAnswer';
import { selectionOffsets } from './selection';
import './questions.css';

/**
 * Marking in the document view: any span selected in the document's text (its paragraphs carry
 * `data-start`), or the opened block's sentences as check boxes (keyboard only). With answers
 * already marked, "Also needed" makes the selection a second required part, not an alternative.
 */
export function DocMark({ doc, block, textRef }: { doc: Document | null; block: BlockView; textRef: RefObject<HTMLElement | null> }) {
  const query = useView((s) => s.view.query.trim());
  const set = useQuestionSet((s) => s.set);
  const [note, setNote] = useState<{ text: string; error: boolean } | null>(null);
  const existing = set && query ? questionFor(query) : null;
  const marked = existing && !existing.unanswerable ? existing.answers.length : 0;
  const [alsoNeeded, setAlsoNeeded] = useState(existing?.needs === 'all');
  // The box follows the question's rule when the question (or its rule) changes.
  useEffect(() => setAlsoNeeded(existing?.needs === 'all'), [existing?.id, existing?.needs]);
  if (!query) return null;
  const markSelection = async () => {
    const el = textRef.current;
    const at = el && doc ? selectionOffsets(el, doc.text) : null;
    if (!doc || !at) {
      setNote({ text: 'Select the words that answer the question in the document first.', error: true });
      return;
    }
    const span = { doc: doc.id, start: at[0], end: at[1], text: doc.text.slice(at[0], at[1]) };
    const words = `“${span.text.length > 80 ? `${span.text.slice(0, 79)}…` : span.text}”`;
    if (await markAnswer(query, span, [span], doc.text, 0, marked ? (alsoNeeded ? 'all' : 'any') : undefined)) {
      setNote({ text: marked && alsoNeeded ? `Saved: ${words} is also needed to answer “${query}” (all its answers needed).` : `Saved: ${words} answers “${query}”.`, error: false });
    }
  };
  return (
    <div className="docview-mark">
      <div className="mark-actions">
        <button type="button" className="link" disabled={!doc} onMouseDown={(e) => e.preventDefault()} onClick={() => void markSelection()}>
          Mark selected text as the answer
        </button>
        {marked > 0 && (
          <label className="mark-needed">
            <input type="checkbox" checked={alsoNeeded} onChange={(e) => setAlsoNeeded(e.currentTarget.checked)} />
            Also needed with the {marked === 1 ? 'answer' : `${marked} answers`} already marked (all of them, not any one)
          </label>
        )}
      </div>
      {note && (
        <p className={note.error ? 'mark-problem' : 'small'} role={note.error ? 'alert' : 'status'}>
          {note.text}
        </p>
      )}
      <MarkAnswer block={block} rank={1} name="the opened block" />
    </div>
  );
}
