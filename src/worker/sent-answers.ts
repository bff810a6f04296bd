/**
 * The columns' answers the page was last sent, numbered, so that a search whose column answers
 * exactly as before says "same" instead of sending it again. A slider drag changes a few columns
 * (the window sizes change only the window columns) while every column is searched: the others
 * cost the page a structured clone and a React pass each step for nothing.
 */
import { dequal } from 'dequal';
import type { ColumnId, ColumnResult } from './search-protocol';

export class SentAnswers {
  private next = 1;
  private readonly last = new Map<ColumnId, { answer: number; sent: ColumnResult }>();

  /**
   * The column's answer as the page needs it: `same` when the page says it holds (`held`) the
   * very answer last sent for that column and this one equals it in every field; else the answer
   * with a new number. Equality is checked, never assumed from the parameters: a new document,
   * a model's vectors arriving or a changed analyzer may change any column.
   */
  stand(fresh: ColumnResult, held: number | undefined): { same: true } | { same: false; sent: ColumnResult } {
    const id = fresh.column.id;
    const last = this.last.get(id);
    if (held !== undefined && last?.answer === held && dequal(last.sent.column, fresh.column) && dequal(last.sent.result, fresh.result)) return { same: true };
    const sent: ColumnResult = { ...fresh, answer: this.next++ };
    this.last.set(id, { answer: sent.answer!, sent });
    return { same: false, sent };
  }
}
