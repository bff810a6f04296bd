import { collapseSpaces, type DocumentBuilder } from './builder';
import { tableSentences } from './table-rows';

/**
 * What word-processor loaders (docx, odt) share: headings open sections, paragraphs and
 * list items stay blocks, a table becomes one sentence per row with its headers, and the
 * footnotes and endnotes referenced in a section are written at the end of that section
 * (before the next heading), marked "Note [n]:".
 */
export class OfficeWriter {
  private pending: string[] = [];
  private readonly written = new Set<string>();

  constructor(
    private readonly b: DocumentBuilder,
    /** Note id → its text. */
    private readonly notes: Map<string, { label: string; text: string }> = new Map(),
  ) {}

  heading(level: number, text: string): void {
    if (!collapseSpaces(text)) return;
    this.flushNotes();
    this.b.heading(Math.max(1, Math.min(6, level)), text);
  }

  paragraph(text: string, noteIds: readonly string[] = []): void {
    this.b.block(text);
    for (const id of noteIds) this.refer(id);
  }

  /** A note referenced here: queued for the end of the current section. */
  refer(id: string): void {
    const note = this.notes.get(id);
    if (!note || this.written.has(id)) return;
    this.written.add(id);
    const text = collapseSpaces(note.text);
    if (text) this.pending.push(`Note [${note.label}]: ${text}`);
  }

  table(grid: string[][]): void {
    const t = tableSentences(grid);
    if (t.caption) this.b.block(t.caption);
    for (const row of t.rows) this.b.block(row);
  }

  private flushNotes(): void {
    for (const n of this.pending) this.b.block(n);
    this.pending = [];
  }

  /** Writes what is still pending, notes never referenced included (at the very end). */
  finish(): void {
    for (const [id] of this.notes) this.refer(id);
    this.flushNotes();
  }
}
