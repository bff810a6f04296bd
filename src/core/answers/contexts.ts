/**
 * The contexts a run handed over, kept for answering: each distinct block once (as the prompt
 * needs it, plus its document and position for reading order), and for every measured point and
 * question the list of its blocks, best first. Many points of a sweep hand over the same blocks,
 * so the table stays small; it crosses from the worker to the page as plain data.
 */
import type { PromptBlock } from '../generate/prompt';
import { blockPlace } from '../structure/block-place';
import type { Corpus } from '../structure/corpus';
import type { ContextBlock } from '../types';

/** A block as an answer prompt and reading order need it. */
export interface AnswerBlock extends PromptBlock {
  /** Document index in the corpus, and character span in its text. */
  doc: number;
  start: number;
  end: number;
  docId: string;
}

export interface HandedContexts {
  blocks: AnswerBlock[];
  /** [point][question] → indices into `blocks`, best first; a question a point was not run on has none. */
  contexts: number[][][];
}

export class ContextCollector {
  private readonly blocks: AnswerBlock[] = [];
  private readonly index = new Map<string, number>();
  private readonly contexts: number[][][] = [];

  constructor(private readonly corpus: Corpus) {}

  /** What `point` handed over for `question` (the blocks in retrieval order). */
  add(point: number, question: number, handed: readonly ContextBlock[]): void {
    const row = (this.contexts[point] ??= []);
    row[question] = handed.map((b) => this.blockIndex(b));
  }

  private blockIndex(b: ContextBlock): number {
    // The same unit with another header (a header variant) is another block.
    const key = `${b.id}\u0000${b.header ?? ''}\u0000${b.start}\u0000${b.end}`;
    let i = this.index.get(key);
    if (i === undefined) {
      const place = blockPlace(this.corpus, b.sentences);
      i = this.blocks.length;
      this.blocks.push({
        id: b.id,
        text: b.text,
        ...(b.header ? { header: b.header } : {}),
        docTitle: place.docTitle,
        sectionPath: place.sectionPath,
        ...(place.pageStart !== undefined ? { pageStart: place.pageStart } : {}),
        ...(place.pageEnd !== undefined ? { pageEnd: place.pageEnd } : {}),
        doc: b.doc,
        start: b.start,
        end: b.end,
        docId: place.docId,
      });
      this.index.set(key, i);
    }
    return i;
  }

  /** The collected table (points without any context are empty rows). */
  result(points: number): HandedContexts {
    const contexts: number[][][] = [];
    for (let p = 0; p < points; p++) contexts.push(this.contexts[p] ?? []);
    return { blocks: this.blocks, contexts };
  }
}
