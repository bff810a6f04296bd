/**
 * Marking answers, as pure functions (the page's question-set store applies them): which
 * question of the set a typed question is, a question's answers after the user marked
 * sentences of one block or a selected span, and whether it then needs all of them.
 */
import { needsAll, normalNeeds } from '../core/questions/needs';
import type { GoldSpan, LabelledQuestion } from '../core/questions/types';

/** The same question whatever its case, spacing or final punctuation. */
export function questionKey(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').replace(/[\s?!.。？！]+$/u, '').trim();
}

/** The question of the set asked with these words (marked ones first), or null. */
export function findQuestion(questions: readonly LabelledQuestion[], text: string): LabelledQuestion | null {
  const key = questionKey(text);
  if (!key) return null;
  const same = questions.filter((q) => questionKey(q.question) === key);
  return same.find((q) => q.source.kind === 'marked') ?? same[0] ?? null;
}

/** A region of one document the user looked at (a block): marks inside it replace the answers there. */
export interface MarkRegion {
  doc: string;
  start: number;
  end: number;
}

/**
 * Spans in one document that overlap, touch, or have only white space between them become one:
 * two marked sentences side by side are one answer. `text` is the document's text (or any text
 * that holds [from, ...) of it at offset `from`).
 */
export function mergeSpans(spans: readonly GoldSpan[], text: string, from = 0): GoldSpan[] {
  const sorted = [...spans].sort((a, b) => (a.doc < b.doc ? -1 : a.doc > b.doc ? 1 : a.start - b.start || a.end - b.end));
  const out: GoldSpan[] = [];
  for (const s of sorted) {
    const last = out[out.length - 1];
    const gap = last && last.doc === s.doc ? text.slice(last.end - from, s.start - from) : null;
    if (last && gap !== null && (s.start <= last.end || gap.trim() === '')) {
      const end = Math.max(last.end, s.end);
      out[out.length - 1] = { doc: s.doc, start: last.start, end, text: text.slice(last.start - from, end - from) };
    } else out.push({ ...s });
  }
  return out;
}

/**
 * The answers after marking: those outside `region` stay, those inside it are replaced by
 * `chosen` (merged where side by side). `text` holds the region's document text from `from`.
 */
export function answersAfterMarking(existing: readonly GoldSpan[], region: MarkRegion, chosen: readonly GoldSpan[], text: string, from: number): GoldSpan[] {
  const overlaps = (a: GoldSpan, r: MarkRegion) => a.doc === r.doc && a.start < r.end && r.start < a.end;
  const outside = existing.filter((a) => !overlaps(a, region));
  // A span reaching out of the region was marked elsewhere (another block, a selection): kept whole while any of it stays ticked here.
  const straddling = existing.filter((a) => overlaps(a, region) && (a.start < region.start || a.end > region.end) && chosen.some((c) => overlaps(c, a)));
  const inRegion = mergeSpans(chosen, text, from).filter((c) => !straddling.some((k) => k.start <= c.start && c.end <= k.end));
  return [...outside, ...straddling, ...inRegion].sort((a, b) => (a.doc < b.doc ? -1 : a.doc > b.doc ? 1 : a.start - b.start));
}

/** Sentences of a block, clipped to it, as gold-span candidates (text taken from the block's own text). */
export function blockSentences(block: { docId: string; start: number; end: number; text: string }, spans: readonly { start: number; end: number }[]): GoldSpan[] {
  return spans
    .map((s) => ({ start: Math.max(block.start, s.start), end: Math.min(block.end, s.end) }))
    .filter((s) => s.end > s.start)
    .map((s) => ({ doc: block.docId, start: s.start, end: s.end, text: block.text.slice(s.start - block.start, s.end - block.start) }));
}

/** A short form of a question's answers for lists: the first answer's text, cut, and how many more (all needed, or any one). */
export function answersInWords(q: Pick<LabelledQuestion, 'answers' | 'unanswerable' | 'needs'>, max = 120): string {
  if (q.unanswerable) return 'Not answerable from these documents';
  if (!q.answers.length) return 'no answer marked';
  const first = q.answers[0]!.text.replace(/\s+/g, ' ').trim();
  const cut = first.length > max ? `${first.slice(0, max - 1)}…` : first;
  return q.answers.length > 1 ? `${cut} (+${q.answers.length - 1} more${needsAll(q) ? ', all needed' : ''})` : cut;
}

/**
 * Whether the question needs every answer after marking: `choice` 'all' when the user said the
 * new marks are also needed, 'any' when they are alternatives, absent to keep the rule it had.
 * 'all' only with two or more answers (with one, the rules are the same).
 */
export function needsAfterMarking(before: Pick<LabelledQuestion, 'needs'> | null, answers: readonly GoldSpan[], documents: readonly string[] | undefined, choice?: 'all' | 'any'): { needs?: 'all' } {
  const needs = choice ? (choice === 'all' ? 'all' : undefined) : before?.needs;
  return normalNeeds({ answers, ...(documents ? { documents } : {}), ...(needs ? { needs } : {}) });
}
