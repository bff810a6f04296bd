import { useState } from 'react';
import { blockContextKey, editContext } from '../../state/contexts';
import type { BlockView } from '../../worker/protocol';

/**
 * A block's situating context (contextual retrieval), distinct from the dsRAG header: who wrote
 * it, whether it was cut or written from a window of a long document, and an editor for the
 * user's own text (blank removes it: the unit is plain again). Shown on the Contextual chunks
 * column's blocks, which hand the context over with the unit.
 */
export function BlockContext({ block }: { block: BlockView }) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  if (!block.id.startsWith('contextual:')) return null;
  const c = block.context;
  const save = async (text: string) => {
    setProblem(null);
    try {
      await editContext(blockContextKey(block), text);
      setEditing(false);
    } catch (e) {
      setProblem((e as Error).message);
    }
  };
  if (editing) {
    return (
      <div className="block-context editing" onClick={(e) => e.stopPropagation()}>
        <label className="g-field">
          <span>Context of this {block.provenance.unit === 'chunk' ? 'chunk' : block.provenance.unit}</span>
          <textarea rows={3} value={draft} onChange={(e) => setDraft(e.target.value)} />
        </label>
        <div className="g-actions">
          <button type="button" onClick={() => void save(draft)}>
            Save context
          </button>
          <button type="button" onClick={() => setEditing(false)}>
            Keep as it was
          </button>
          {c && (
            <button type="button" onClick={() => void save('')}>
              Remove context
            </button>
          )}
        </div>
        {problem && <p className="g-error">{problem}</p>}
      </div>
    );
  }
  const open = (e: React.MouseEvent) => {
    e.stopPropagation();
    setDraft(c?.text ?? '');
    setEditing(true);
  };
  if (!c) {
    return (
      <p className="block-context none">
        no context: retrieved by its plain text ·{' '}
        <button type="button" className="g-link" onClick={open}>
          write one
        </button>
      </p>
    );
  }
  const flags = [c.cut ? 'cut to the limit' : '', c.window ? 'from a window of the document' : ''].filter(Boolean);
  return (
    <blockquote className="block-context" aria-label="Situating context">
      <span className="label">context</span>
      {c.text}
      <span className="block-context-source">
        {' '}
        — {c.source}
        {flags.length ? ` · ${flags.join(' · ')}` : ''} ·{' '}
        <button type="button" className="g-link" onClick={open}>
          edit
        </button>
      </span>
    </blockquote>
  );
}
