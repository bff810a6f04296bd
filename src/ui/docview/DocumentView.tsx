import { memo, useEffect, useMemo, useRef, type ReactNode } from 'react';
import { strategyOf } from '../../core/strategies/registry';
import type { Document } from '../../core/types';
import { closeDocument } from '../../state/controller';
import { useResults } from '../../state/stores';
import type { BlockView } from '../../worker/protocol';
import { pagesLabel, sectionPathLabel } from '../results/format';
import { DocMark } from '../questions/DocMark';
import { enclosingSection, joinAcrossWhitespace, nestRanges, overlapsAny, paragraphs, type RangeNode, type Span } from './ranges';
import './docview.css';

/** Class of each nesting level: section ⊃ block ⊃ retrieved sentences. */
const LEVEL_CLASS = ['range-section', 'range-block', 'range-hit'] as const;

/** The opened block in its document: its section, what the strategy hands over, and the retrieved sentences. */
export function DocumentView() {
  const selected = useResults((s) => s.selected);
  const doc = useResults((s) => s.document);
  const asideRef = useRef<HTMLElement>(null);
  const textRef = useRef<HTMLDivElement>(null);
  const topRef = useRef<HTMLDivElement>(null);
  const block = selected?.block ?? null;
  const loaded = doc && block && doc.id === block.docId ? doc : null;

  // Scroll the first retrieved sentence (else the block) into view when the selection or the document changes.
  const selKey = selected ? `${selected.column.id}|${selected.block.id}` : '';
  useEffect(() => {
    if (!selKey || !loaded) return;
    const el = textRef.current?.querySelector('.range-hit') ?? textRef.current?.querySelector('.range-block');
    if (el) scrollToCenter(asideRef.current, topRef.current, el);
  }, [selKey, loaded]);

  // Focus: where the view lies over the page (a drawer on narrower screens), it takes the focus when a
  // block opens it; when it closes, the focus goes back to what opened it (the block, the citation).
  const open = selected !== null;
  const opener = useRef<HTMLElement | null>(null);
  useEffect(() => {
    if (!selKey) return;
    const active = document.activeElement;
    const aside = asideRef.current;
    if (active instanceof HTMLElement && active !== document.body && !aside?.contains(active)) opener.current = active;
    if (aside && opener.current && getComputedStyle(aside).position === 'fixed') aside.focus({ preventScroll: true });
  }, [selKey]);
  useEffect(() => {
    if (!open) return;
    return () => {
      const active = document.activeElement;
      const back = opener.current;
      opener.current = null;
      if (back?.isConnected && (!active || active === document.body || !active.isConnected)) back.focus({ preventScroll: true });
    };
  }, [open]);

  // Escape closes the view, unless it is typed into a field (which may use it itself).
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      const t = e.target;
      if (e.key !== 'Escape' || e.defaultPrevented || (t instanceof Element && t.closest('input, textarea, select, [contenteditable="true"]'))) return;
      closeDocument();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);

  if (!selected || !block) return null;
  const pages = pagesLabel(block.pageStart, block.pageEnd, block.pageUnit);
  const section = loaded ? enclosingSection(loaded, block.start, block.end) : null;
  // The outer range is the block's parent chunk in the chunk tree, else its section.
  const outer: Span | null = block.parent ?? section;
  return (
    <aside
      ref={asideRef}
      className="docview"
      aria-label="Document view"
      tabIndex={-1}
    >
      <div className="docview-top" ref={topRef}>
        <header className="docview-head">
          <h2 className="docview-title">{block.docTitle}</h2>
          <button type="button" className="docview-close" onClick={closeDocument} aria-label="Close document view">
            Close
          </button>
        </header>
        <p className="docview-where small">
          {sectionPathLabel(block.sectionPath, block.docTitle) || 'no section'}
          {pages && ` · ${pages}`} · from “{selected.column.label}”
        </p>
        <ul className="docview-legend" aria-label="Legend">
          <li>
            <span className="swatch swatch-hit" aria-hidden="true" /> retrieved sentence
          </li>
          <li>
            <span className="swatch swatch-block" aria-hidden="true" /> what the strategy hands over ({strategyOf(selected.column.strategy).blockWords})
          </li>
          <li>
            <span className="swatch swatch-section" aria-hidden="true" />{' '}
            {block.parent
              ? `its parent chunk (level ${block.parent.level}, ${block.parent.tokens} tokens)`
              : `its section${loaded ? (section ? ` (${section.title || 'untitled'})` : ' (none: the whole document)') : ''}`}
          </li>
        </ul>
        <DocMark doc={loaded} block={block} textRef={textRef} />
      </div>
      {block.header && (
        <blockquote className="docview-header">
          <span className="label">header</span>
          {block.header}
        </blockquote>
      )}
      <div className="docview-text" ref={textRef}>
        {loaded ? <DocumentText doc={loaded} block={block} section={outer} /> : <p className="empty">Loading the document…</p>}
      </div>
    </aside>
  );
}

/**
 * Centres el in the document view's own scroll box (below its sticky top), so the results beside it stay where
 * they are; where the view does not scroll by itself (narrow layouts), the page scrolls.
 */
function scrollToCenter(box: HTMLElement | null, stickyTop: HTMLElement | null, el: Element): void {
  if (box && box.scrollHeight > box.clientHeight) {
    const b = box.getBoundingClientRect();
    // The title, close button and legend stay on top: centre in what is visible below them.
    const top = Math.max(b.top, stickyTop?.getBoundingClientRect().bottom ?? b.top);
    const visible = Math.max(0, b.top + box.clientHeight - top);
    const r = el.getBoundingClientRect();
    box.scrollTop += r.top - top - Math.max(0, (visible - r.height) / 2);
  } else {
    el.scrollIntoView?.({ block: 'center' });
  }
}

function DocumentText({ doc, block, section }: { doc: Document; block: BlockView; section: Span | null }) {
  const paras = useMemo(() => paragraphs(doc.text), [doc]);
  const levels = useMemo<Span[][]>(
    () => [
      section ? [{ start: section.start, end: section.end }] : [],
      [{ start: block.start, end: block.end }],
      joinAcrossWhitespace(
        block.hitSpans.map(([a, b]) => ({ start: block.start + a, end: block.start + b })),
        doc.text,
      ),
    ],
    [block, section, doc],
  );
  return (
    <>
      {paras.map((p) => (
        <Paragraph key={p.start} text={doc.text} start={p.start} end={p.end} levels={overlapsAny(p.start, p.end, levels) ? levels : null} />
      ))}
    </>
  );
}

/** A paragraph: plain text unless a range overlaps it (then memo skips it on selection changes). */
const Paragraph = memo(function Paragraph({ text, start, end, levels }: { text: string; start: number; end: number; levels: Span[][] | null }) {
  // data-start: where a selection in it lies in the document (marking an answer).
  if (!levels) return <p data-start={start}>{text.slice(start, end)}</p>;
  return <p data-start={start}>{renderNodes(text, nestRanges(start, end, levels))}</p>;
});

function renderNodes(text: string, nodes: RangeNode[]): ReactNode[] {
  return nodes.map((n) => {
    if (n.kind === 'text') return text.slice(n.start, n.end);
    const children = renderNodes(text, n.children);
    const cls = LEVEL_CLASS[n.level] ?? '';
    return n.level === 2 ? (
      <mark key={n.start} className={cls}>
        {children}
      </mark>
    ) : (
      <span key={n.start} className={cls}>
        {children}
      </span>
    );
  });
}
