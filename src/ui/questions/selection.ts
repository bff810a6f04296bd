/**
 * Where the user's text selection lies, as character offsets into the text a container
 * renders (a block's text, or a document's paragraphs tagged with `data-start`). Text is
 * rendered as text nodes only, so the DOM's text is the document's text.
 */

/** [start, end) without the white space at either end; null when only white space is left. */
export function trimSpan(text: string, start: number, end: number): [number, number] | null {
  let a = Math.max(0, Math.min(start, end));
  let b = Math.min(text.length, Math.max(start, end));
  while (a < b && /\s/.test(text[a]!)) a++;
  while (b > a && /\s/.test(text[b - 1]!)) b--;
  return b > a ? [a, b] : null;
}

/** The offset of a DOM point: from its nearest `data-start` element inside the container (plus that start), else from the container's start. */
function pointOffset(container: HTMLElement, node: Node, offset: number): number {
  const el = node instanceof Element ? node : node.parentElement;
  const tagged = el?.closest<HTMLElement>('[data-start]');
  const base = tagged && container.contains(tagged) && tagged !== container ? tagged : container;
  const before = container.ownerDocument.createRange();
  before.selectNodeContents(base);
  before.setEnd(node, offset);
  return (base === container ? 0 : Number(base.dataset.start)) + before.toString().length;
}

/** The selection inside `container` as [start, end) into `text` (trimmed), or null when nothing in it is selected. */
export function selectionOffsets(container: HTMLElement, text: string): [number, number] | null {
  const sel = container.ownerDocument.getSelection();
  if (!sel || sel.rangeCount === 0 || sel.isCollapsed) return null;
  const r = sel.getRangeAt(0);
  if (!container.contains(r.startContainer) || !container.contains(r.endContainer)) return null;
  return trimSpan(text, pointOffset(container, r.startContainer, r.startOffset), pointOffset(container, r.endContainer, r.endOffset));
}
