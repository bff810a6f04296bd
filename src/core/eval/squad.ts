import { DocumentBuilder, contentId } from '../documents/builder';
import type { Document } from '../types';
import { clean } from '../util/clean-text';
import { DatasetError, type EvalQuestion, type EvalSet } from './dataset';
import { FieldError, idField, listField, offsetField, stripBom, textField } from './fields';

interface SquadAnswer {
  text: string;
  answer_start?: number;
  answer_start_candidates?: number[];
}
interface SquadQa {
  id: string;
  question: string;
  answers?: SquadAnswer[];
  is_impossible?: boolean;
}
interface SquadParagraph {
  context: string;
  qas: SquadQa[];
}
interface SquadArticle {
  title: string;
  paragraphs: SquadParagraph[];
}

export interface SquadOptions {
  /** Use only the first N articles. */
  limitDocs?: number;
  language?: string;
  name?: string;
}

/**
 * SQuAD-format JSON (SQuAD v1.1/v2.0, XQuAD, FaQuAD): each article becomes one long
 * document (its paragraphs in order), so strategies work within whole articles. Answer
 * spans are mapped into the document; an answer whose offset does not match its text is
 * located by search (some sets have stale offsets), and unanswerable questions are kept apart
 * (EvalSet.unanswerable: not scored by retrieval, asked by answer runs).
 */
export function readSquad(json: unknown, options: SquadOptions = {}): EvalSet {
  const data = (json as { data?: unknown })?.data;
  if (!Array.isArray(data)) throw new DatasetError('not a SQuAD-format file: expected {"data": [articles…]}');
  const articles = (options.limitDocs ? data.slice(0, options.limitDocs) : data) as SquadArticle[];
  const docs: Document[] = [];
  const questions: EvalQuestion[] = [];
  const unanswerable: EvalQuestion[] = [];
  const skipped: string[] = [];
  articles.forEach((article, ai) => {
    if (!article || !Array.isArray(article.paragraphs)) {
      skipped.push(`article ${ai + 1}: no "paragraphs" list`);
      return;
    }
    const b = new DocumentBuilder();
    const rawTitle: unknown = article.title;
    const title = clean(typeof rawTitle === 'string' || typeof rawTitle === 'number' ? String(rawTitle) : `Article ${ai + 1}`).replace(/_/g, ' ');
    const id = `squad:${ai}:${contentId(title)}`;
    article.paragraphs.forEach((p, pi) => {
      if (typeof p?.context !== 'string') {
        skipped.push(`article ${ai + 1} paragraph ${pi + 1}: no "context" text`);
        return;
      }
      // Cleaned as the builder cleans it (same length), so offsets and answer texts still meet.
      const context = clean(p.context);
      const offset = b.rawBlock(p.context);
      let qas: unknown[];
      try {
        qas = listField(p.qas, 'qas');
      } catch (e) {
        skipped.push(`article ${ai + 1} paragraph ${pi + 1}: ${(e as Error).message}`);
        return;
      }
      for (const raw of qas) {
        const qa = raw as SquadQa | null;
        const qid = typeof qa?.id === 'string' || typeof qa?.id === 'number' ? clean(String(qa.id)) : '?';
        try {
          const q = readQa(qa, context, offset, id);
          if (typeof q === 'string') skipped.push(`question ${qid}: ${q}`);
          else if (q.targets.length === 0) {
            unanswerable.push(q);
            skipped.push(`question ${qid}: unanswerable (asked by answer runs only)`);
          } else questions.push(q);
        } catch (e) {
          if (!(e instanceof FieldError)) throw e;
          skipped.push(`question ${qid}: ${e.message}`);
        }
      }
    });
    if (b.length === 0) return;
    docs.push(b.build({ id, title, language: options.language, meta: { fileName: `${title}.txt`, size: b.length, format: 'txt' } }));
  });
  if (!docs.length) throw new DatasetError('the SQuAD file has no usable articles');
  if (!questions.length) throw new DatasetError(`the SQuAD file has no usable question${skipped.length ? ` (${skipped.slice(0, 3).join('; ')})` : ''}`);
  return { name: options.name ?? 'squad', docs, questions, ...(unanswerable.length ? { unanswerable } : {}), skipped };
}

/** One question of a paragraph, a reason to skip it, or a FieldError naming the wrong field. */
function readQa(qa: SquadQa | null, context: string, offset: number, doc: string): EvalQuestion | string {
  if (!qa || typeof qa !== 'object') return 'not an object';
  const question = textField(qa.question, 'question').trim();
  if (!question) return 'no question text';
  // SQuAD v2.0's impossible questions: no target; an answer run counts a correct abstention.
  if (qa.is_impossible === true) return { id: qa.id === undefined ? `${doc}:${offset}:${question}` : idField(qa.id, 'id'), question, answers: [], targets: [] };
  const answers = listField(qa.answers, 'answers');
  if (!answers.length) return 'no answers';
  const spans: { start: number; end: number }[] = [];
  const texts: string[] = [];
  answers.forEach((raw, i) => {
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new FieldError(`"answers[${i}]" is ${raw === null ? 'null' : typeof raw}, not an object`);
    const a = raw as Record<string, unknown>;
    const text = textField(a.text, `answers[${i}].text`);
    if (!text) return;
    texts.push(text);
    const candidates = listField(a.answer_start_candidates, `answers[${i}].answer_start_candidates`).map((v, j) => offsetField(v, `answers[${i}].answer_start_candidates[${j}]`));
    const starts = new Set<number>([...candidates, ...(a.answer_start !== undefined ? [offsetField(a.answer_start, `answers[${i}].answer_start`)] : [])]);
    const valid = [...starts].filter((s) => context.startsWith(text, s));
    if (!valid.length) {
      const found = context.indexOf(text);
      if (found >= 0) valid.push(found);
    }
    for (const s of valid) spans.push({ start: offset + s, end: offset + s + text.length });
  });
  if (!spans.length) return 'answer text not found in its paragraph';
  return { id: qa.id === undefined ? `${doc}:${offset}` : idField(qa.id, 'id'), question, answers: [...new Set(texts)], targets: [{ doc, grade: 1, spans }] };
}

/** A SQuAD-format file's text (a byte-order mark is not part of it): invalid JSON is a DatasetError. */
export function readSquadText(text: string, options: SquadOptions = {}): EvalSet {
  let json: unknown;
  try {
    json = JSON.parse(stripBom(text));
  } catch (e) {
    throw new DatasetError(`not valid JSON (${(e as Error).message})`);
  }
  return readSquad(json, options);
}
