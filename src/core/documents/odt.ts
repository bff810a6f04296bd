import type { ChildNode } from 'domhandler';
import type { DocumentBuilder } from './builder';
import type { OfficeInfo } from './docx';
import { odfInlineText, odfMeta, odfTableGrid, openOdf, type OdfNote } from './odf';
import { OfficeWriter } from './office-writer';
import { findFirst, isElement } from './zip-xml';

/** Containers whose children are walked as blocks. */
const CONTAINERS = new Set(['text:section', 'text:list', 'text:list-item', 'text:list-header', 'draw:frame', 'draw:text-box', 'text:index-body']);
const SKIP = new Set(['text:table-of-content', 'text:tracked-changes', 'office:annotation', 'text:sequence-decls', 'text:variable-decls', 'office:forms']);

/**
 * OpenDocument text (.odt): text:h with its outline level opens a section, text:p and list
 * items stay blocks, tables become one sentence per row, footnotes and endnotes (inline
 * text:note elements) move to the end of their section. Title: meta.xml's, else the first heading.
 */
export function parseOdt(bytes: Uint8Array, fileName: string, b: DocumentBuilder): OfficeInfo & { language?: string } {
  const zip = openOdf(bytes, fileName, 'an OpenDocument text (.odt)', 'application/vnd.oasis.opendocument.text');
  const content = zip.requireXml('content.xml');
  const body = findFirst(content, 'office:text') ?? content;
  const notes = new Map<string, { label: string; text: string }>();
  const w = new OfficeWriter(b, notes);
  let n = 0;
  const onNote = (note: OdfNote) => {
    const id = `note-${n++}`;
    notes.set(id, note);
    w.refer(id);
  };
  const walk = (nodes: ChildNode[]) => {
    for (const c of nodes) {
      if (!isElement(c) || SKIP.has(c.name)) continue;
      if (c.name === 'text:h') w.heading(Number(c.attribs['text:outline-level']) || 1, odfInlineText(c, onNote));
      else if (c.name === 'text:p') w.paragraph(odfInlineText(c, onNote));
      else if (c.name === 'table:table') w.table(odfTableGrid(c));
      else if (CONTAINERS.has(c.name)) walk(c.children);
    }
  };
  walk(body.children);
  w.finish();
  const meta = odfMeta(zip);
  const { language, ...info } = meta;
  return { ...info, ...(language ? { language } : {}) };
}
