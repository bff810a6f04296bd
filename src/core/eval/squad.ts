import { DocumentBuilder, contentId } from '../documents/builder';
import type { Document } from '../types';
import { DatasetError, type EvalQuestion, type EvalSet } from './dataset';

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
 * located by search (some sets have stale offsets), and unanswerable questions are skipped.
 */
export function readSquad(json: unknown, options: SquadOptions = {}): EvalSet {
  const data = (json as { data?: unknown })?.data;
  if (!Array.isArray(data)) throw new DatasetError('not a SQuAD-format file: expected {"data": [articles…]}');
  const articles = (options.limitDocs ? data.slice(0, options.limitDocs) : data) as SquadArticle[];
  const docs: Document[] = [];
  const questions: EvalQuestion[] = [];
  const skipped: string[] = [];
  articles.forEach((article, ai) => {
    if (!article || !Array.isArray(article.paragraphs)) {
      skipped.push(`article ${ai + 1}: no "paragraphs" list`);
      return;
    }
    const b = new DocumentBuilder();
    const title = String(article.title ?? `Article ${ai + 1}`).replace(/_/g, ' ');
    const id = `squad:${ai}:${contentId(title)}`;
    article.paragraphs.forEach((p, pi) => {
      if (typeof p?.context !== 'string') {
        skipped.push(`article ${ai + 1} paragraph ${pi + 1}: no "context" text`);
        return;
      }
      const offset = b.rawBlock(p.context);
      for (const qa of p.qas ?? []) {
        if (!qa?.question || qa.is_impossible || !qa.answers?.length) {
          skipped.push(`question ${qa?.id ?? '?'}: ${qa?.is_impossible ? 'unanswerable' : 'no question or answers'}`);
          continue;
        }
        const spans: { start: number; end: number }[] = [];
        for (const a of qa.answers) {
          if (!a?.text) continue;
          const starts = new Set<number>([...(a.answer_start_candidates ?? []), ...(a.answer_start !== undefined ? [a.answer_start] : [])]);
          const valid = [...starts].filter((s) => p.context.startsWith(a.text, s));
          if (!valid.length) {
            const found = p.context.indexOf(a.text);
            if (found >= 0) valid.push(found);
          }
          for (const s of valid) spans.push({ start: offset + s, end: offset + s + a.text.length });
        }
        if (!spans.length) {
          skipped.push(`question ${qa.id}: answer text not found in its paragraph`);
          continue;
        }
        questions.push({
          id: String(qa.id),
          question: qa.question,
          answers: [...new Set(qa.answers.map((a) => a.text).filter(Boolean))],
          targets: [{ doc: id, grade: 1, spans }],
        });
      }
    });
    if (b.length === 0) return;
    docs.push(b.build({ id, title, language: options.language, meta: { fileName: `${title}.txt`, size: b.length, format: 'txt' } }));
  });
  if (!docs.length) throw new DatasetError('the SQuAD file has no usable articles');
  return { name: options.name ?? 'squad', docs, questions, skipped };
}
