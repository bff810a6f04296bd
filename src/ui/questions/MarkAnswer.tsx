import { useEffect, useId, useState, type RefObject, type SyntheticEvent } from 'react';
import type { GoldSpan } from '../../core/questions/types';
import { sentenceSpans } from '../../state/controller';
import { blockSentences } from '../../state/question-marks';
import { markAnswer, questionFor, useQuestionSet } from '../../state/question-set';
import { useView } from '../../state/stores';
import type { BlockView } from '../../worker/protocol';
import { selectionOffsets } from './selection';
import './questions.css';

/** Clicks and keys inside the control stay in it (a block card opens the document view on click). */
const keep = (e: SyntheticEvent) => e.stopPropagation();

const overlaps = (a: { start: number; end: number }, b: { start: number; end: number }) => a.start < b.end && b.start < a.end;

/**
 * Marks what in a block answers the question asked: a "Mark answer" button opens the block's
 * sentences as check boxes (keyboard only works: Tab, Space, Save), and "Mark selected text"
 * takes a span selected in the block's text (`textRef`, whose text is exactly block.text).
 * When answers are marked in other blocks, "Also needed" says these sentences are needed
 * with them (the question needs all its answers) rather than an alternative to them.
 */
export function MarkAnswer({ block, rank, textRef, name = `block ${rank}` }: { block: BlockView; rank: number; textRef?: RefObject<HTMLElement | null>; name?: string }) {
  const query = useView((s) => s.view.query.trim());
  const set = useQuestionSet((s) => s.set);
  const [open, setOpen] = useState(false);
  const [sentences, setSentences] = useState<GoldSpan[] | null>(null);
  const [ticked, setTicked] = useState<Set<number>>(new Set());
  const [problem, setProblem] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [alsoNeeded, setAlsoNeeded] = useState(false);
  const listId = useId();
  const blockKey = `${block.docId}:${block.start}-${block.end}:${block.sentences.start}-${block.sentences.end}`;
  const existing = set && query ? questionFor(query) : null;
  const region = { doc: block.docId, start: block.start, end: block.end };
  const inBlock = (a: { doc: string; start: number; end: number }) => a.doc === block.docId && overlaps(a, region);
  const holds = existing?.answers.some(inBlock) ?? false;
  // Answers marked in other blocks: what these sentences may be needed together with.
  const others = existing && !existing.unanswerable ? existing.answers.filter((a) => !inBlock(a)).length : 0;

  useEffect(() => {
    if (!open) return;
    let current = true;
    const indices = Array.from({ length: block.sentences.end - block.sentences.start }, (_, i) => block.sentences.start + i);
    sentenceSpans(indices)
      .then((spans) => {
        if (!current) return;
        const list = blockSentences(block, indices.flatMap((i) => spans.get(i) ?? []));
        setSentences(list);
        const q = questionFor(query);
        const marked = q?.answers.filter((a) => a.doc === block.docId) ?? [];
        setTicked(new Set(list.flatMap((s, i) => (marked.some((a) => overlaps(a, s)) ? [i] : []))));
        setAlsoNeeded(q?.needs === 'all');
      })
      .catch((e: unknown) => current && setProblem(`The block's sentences could not be listed: ${e instanceof Error ? e.message : String(e)}`));
    return () => {
      current = false;
    };
    // Listed once per opening: ticks the user changes are not reset by a new set, nor by the
    // column drawing the same block again as a new object (only another block lists anew).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, blockKey]);

  if (!query) return null;
  const save = async () => {
    if (!sentences) return;
    const chosen = sentences.filter((_, i) => ticked.has(i));
    const together = others > 0 && alsoNeeded;
    if (await markAnswer(query, region, chosen, block.text, block.start, others > 0 ? (alsoNeeded ? 'all' : 'any') : undefined)) {
      setOpen(false);
      const elsewhere = `the ${others === 1 ? 'answer' : `${others} answers`} marked elsewhere`;
      setSaved(`Saved: ${chosen.length} sentence${chosen.length === 1 ? '' : 's'} of ${name} answer${chosen.length === 1 ? 's' : ''} “${query}”${together ? `, together with ${elsewhere} (all needed)` : ''}.`);
    }
  };
  const markSelection = async () => {
    const el = textRef?.current;
    const at = el ? selectionOffsets(el, block.text) : null;
    if (!at) {
      setProblem(`Select some words in the text of ${name} first.`);
      return;
    }
    setProblem(null);
    const span = { doc: block.docId, start: block.start + at[0], end: block.start + at[1], text: block.text.slice(at[0], at[1]) };
    if (await markAnswer(query, span, [span], block.text, block.start)) setSaved(`Saved: the selected text of ${name} answers “${query}”.`);
  };
  return (
    <div className="mark-answer" onClick={keep} onKeyDown={keep}>
      <div className="mark-actions">
        <button type="button" className="link" aria-expanded={open} aria-controls={open ? listId : undefined} aria-label={`Mark answer in ${name}`} onClick={() => setOpen(!open)}>
          Mark answer
        </button>
        {textRef && (
          // Pressing the button must not take the selection away before it is read.
          <button type="button" className="link" aria-label={`Mark selected text of ${name} as the answer`} onMouseDown={(e) => e.preventDefault()} onClick={() => void markSelection()}>
            Mark selected text
          </button>
        )}
        {holds && <span className="mark-holds">✓ holds your marked answer</span>}
      </div>
      {saved && !open && (
        <p className="small" role="status">
          {saved}
        </p>
      )}
      {problem && (
        <p className="mark-problem" role="alert">
          {problem}
        </p>
      )}
      {open && (
        <fieldset id={listId} className="mark-sentences">
          <legend>Which sentences of {name} answer “{query}”?</legend>
          {!sentences ? (
            <p className="small">Listing the sentences…</p>
          ) : (
            sentences.map((s, i) => (
              <label key={s.start} className="mark-sentence">
                <input
                  type="checkbox"
                  checked={ticked.has(i)}
                  onChange={(e) => {
                    const next = new Set(ticked);
                    if (e.currentTarget.checked) next.add(i);
                    else next.delete(i);
                    setTicked(next);
                  }}
                />
                {/* Document text as text, never as HTML. */}
                <span>{s.text}</span>
              </label>
            ))
          )}
          {others > 0 && (
            <label className="mark-needed">
              <input type="checkbox" checked={alsoNeeded} onChange={(e) => setAlsoNeeded(e.currentTarget.checked)} />
              Also needed: the answer needs these sentences and the {others === 1 ? 'answer' : `${others} answers`} marked elsewhere (all of them, not any one)
            </label>
          )}
          <div className="mark-actions">
            <button type="button" className="primary" disabled={!sentences} onClick={() => void save()}>
              Save answer
            </button>
            <button type="button" onClick={() => setOpen(false)}>
              Cancel
            </button>
          </div>
        </fieldset>
      )}
    </div>
  );
}
