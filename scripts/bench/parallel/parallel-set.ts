/**
 * The lab's own parallel question set (scripts/bench/parallel/*.txt, written for the project, MIT):
 * five short articles in English and the same articles translated into other languages, with the
 * same questions in the same order. Each file is plain lines:
 *
 *   % a comment
 *   # Article title
 *   P one paragraph
 *   Q a question about the paragraph above | its answer, exactly as the paragraph writes it
 *
 * Read here into SQuAD-format JSON (answer_start: the answer's first occurrence in its paragraph,
 * answer_start_candidates: every occurrence), so the bench measures it with the lab's own SQuAD
 * reader, as `eval --data` would.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PARALLEL_DIR = dirname(fileURLToPath(import.meta.url));

export interface ParallelQuestion {
  question: string;
  answer: string;
}
export interface ParallelParagraph {
  context: string;
  qas: ParallelQuestion[];
}
export interface ParallelArticle {
  title: string;
  paragraphs: ParallelParagraph[];
}

/** A malformed line of a parallel-set file, named by file and line number. */
export class ParallelSetError extends Error {}

/** Parses one language's file; throws a ParallelSetError naming the line that is wrong. */
export function readParallelText(text: string, name: string): ParallelArticle[] {
  const articles: ParallelArticle[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    const where = `${name}:${i + 1}`;
    if (!line || line.startsWith('%')) return;
    const kind = line[0];
    const body = line.slice(1).trim();
    if (kind === '#') {
      articles.push({ title: body, paragraphs: [] });
      return;
    }
    const article = articles.at(-1);
    if (!article) throw new ParallelSetError(`${where}: a paragraph or question before the first "# title"`);
    if (kind === 'P') {
      article.paragraphs.push({ context: body, qas: [] });
      return;
    }
    if (kind !== 'Q') throw new ParallelSetError(`${where}: a line must start with %, #, P or Q`);
    const paragraph = article.paragraphs.at(-1);
    if (!paragraph) throw new ParallelSetError(`${where}: a question before its paragraph`);
    const bar = body.lastIndexOf('|');
    if (bar < 0) throw new ParallelSetError(`${where}: a question needs " | answer"`);
    const question = body.slice(0, bar).trim();
    const answer = body.slice(bar + 1).trim();
    if (!question || !answer) throw new ParallelSetError(`${where}: empty question or answer`);
    if (!paragraph.context.includes(answer)) throw new ParallelSetError(`${where}: the answer "${answer}" is not in its paragraph`);
    paragraph.qas.push({ question, answer });
  });
  return articles;
}

/** Every occurrence of `needle` in `text`. */
function occurrences(text: string, needle: string): number[] {
  const out: number[] = [];
  for (let i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) out.push(i);
  return out;
}

/** SQuAD-format JSON of a parallel set: question ids a{article}p{paragraph}q{question} are the same in every language. */
export function toSquad(articles: ParallelArticle[]): { data: unknown[] } {
  return {
    data: articles.map((a, ai) => ({
      title: a.title,
      paragraphs: a.paragraphs.map((p, pi) => ({
        context: p.context,
        qas: p.qas.map((q, qi) => {
          const starts = occurrences(p.context, q.answer);
          return { id: `a${ai + 1}p${pi + 1}q${qi + 1}`, question: q.question, answers: [{ text: q.answer, answer_start: starts[0], answer_start_candidates: starts }] };
        }),
      })),
    })),
  };
}

/** The languages of the set: one file each, named by its BCP-47 tag. */
export function parallelLanguages(): string[] {
  return readdirSync(PARALLEL_DIR)
    .filter((f) => /^[a-z]{2,3}\.txt$/.test(f))
    .map((f) => f.slice(0, -4))
    .sort((a, b) => (a === 'en' ? -1 : b === 'en' ? 1 : a.localeCompare(b)));
}

export function readParallel(language: string): ParallelArticle[] {
  const file = `${language}.txt`;
  return readParallelText(readFileSync(join(PARALLEL_DIR, file), 'utf8'), file);
}

/** The shape of a set (questions per paragraph per article): every translation has English's. */
export function shapeOf(articles: ParallelArticle[]): number[][] {
  return articles.map((a) => a.paragraphs.map((p) => p.qas.length));
}
