/**
 * dsRAG's AutoContext for one document: the prompts that ask an LLM for the document's title
 * and a one-sentence summary, and the cleaning of its replies. The result becomes
 * `Document.context`, which `chunkHeader` (../structure/headers.ts) puts in contextual headers.
 *
 * The prompt texts are dsRAG's, word for word — dsrag/auto_context.py in
 * https://github.com/D-Star-AI/dsRAG (MIT licence): DOCUMENT_TITLE_PROMPT,
 * DOCUMENT_SUMMARIZATION_PROMPT, TRUNCATION_MESSAGE and LANGUAGE_ADDENDUM. As there, each is one
 * user message; the title prompt sees at most 4000 tokens of the document and the summary
 * prompt 8000 (dsRAG's max_content_tokens, counted there with gpt-3.5-turbo's tiktoken).
 * Differences, on purpose:
 * - the text is cut to the caller's budget in the caller's TokenCounter, counted exactly
 *   (the largest prefix ending at a word that fits), and the truncation message gives the
 *   number of words actually kept where dsRAG writes a fixed ~3000 / ~6000;
 * - the message is added only when the text was really cut (dsRAG also adds it when the text
 *   is exactly at the budget);
 * - empty placeholders leave one blank line, not a stack of them (Python's format leaves
 *   every empty line of the template in place).
 */
import { dropThinking } from '../util/model-reply';
import type { TokenCounter } from '../segment/tokens';
import type { ChatMessage } from './openai';

/** dsRAG's max_content_tokens for the title (get_document_title). */
export const TITLE_MAX_CONTENT_TOKENS = 4000;
/** dsRAG's max_content_tokens for the summary (get_document_summary). */
export const SUMMARY_MAX_CONTENT_TOKENS = 8000;
/** Longest title kept (characters) — a reply that is a paragraph is not a title. */
export const MAX_TITLE_CHARS = 150;
/** Longest summary kept (characters). */
export const MAX_SUMMARY_CHARS = 400;

export const DOCUMENT_TITLE_PROMPT = `INSTRUCTIONS
What is the title of the following document?

Your response MUST be the title of the document, and nothing else. DO NOT respond with anything else.

{document_title_guidance}

{non_english_addendum}

{truncation_message}

DOCUMENT
{document_text}`;

export const DOCUMENT_SUMMARIZATION_PROMPT = `INSTRUCTIONS
What is the following document, and what is it about? 

Your response should be a single sentence, and it shouldn't be an excessively long sentence. DO NOT respond with anything else.

Your response should take the form of "This document is about: X" (This part should be translated into the language of the document if it's not in English). For example, if the document is a book about the history of the United States called A People's History of the United States, your response might be "This document is about: the history of the United States, covering the period from 1776 to the present day." If the document is the 2023 Form 10-K for Apple Inc., your response might be "This document is about: the financial performance and operations of Apple Inc. during the fiscal year 2023." If the document is the novel Les Miserables by Victor Hugo, your response might be "Ce document concerne : le roman "Les Misérables" de Victor Hugo, qui explore les thèmes de l'injustice sociale, de la rédemption et des luttes de divers personnages dans la France du XIXe siècle."

{document_summarization_guidance}

{non_english_addendum}

{truncation_message}

DOCUMENT
Document name: {document_title}

{document_text}`;

export const TRUNCATION_MESSAGE =
  'Also note that the document text provided below is just the first ~{num_words} words of the document. That should be plenty for this task. Your response should still pertain to the entire document, not just the text provided below.';

export const LANGUAGE_ADDENDUM =
  'YOU MUST use the same language as the document for your entire response. If the document is in English, your response MUST BE entirely in English. If the document is in another language, your response MUST BE entirely in that language.';

export interface DocContextOptions {
  counter: TokenCounter;
  /** Tokens of document text the prompt may hold (in `counter`'s tokens). */
  maxTokens: number;
  /** The document's language (BCP-47); anything but English adds dsRAG's language addendum. */
  language?: string;
  /** dsRAG's document_title_guidance / document_summarization_guidance. */
  guidance?: string;
}

export interface Truncated {
  text: string;
  /** Tokens of `text` in the counter's units. */
  tokens: number;
  truncated: boolean;
  /** Words in `text` (see countWords). */
  words: number;
}

const CJK_CHAR = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]/u;

const WORD = new RegExp(`${CJK_CHAR.source}|[^\\s${CJK_CHAR.source.slice(1, -1)}]+`, 'gu');

/**
 * Words as a reader counts them: each CJK character, and each run of other non-space
 * characters that holds a letter or digit ("—" alone is not a word).
 */
export function countWords(text: string): number {
  let n = 0;
  for (const m of text.matchAll(WORD)) if (CJK_CHAR.test(m[0]) || /[\p{L}\p{N}]/u.test(m[0])) n++;
  return n;
}

/** Places the text may be cut: after each word, and after each CJK character. */
function cutPoints(text: string): number[] {
  const cuts: number[] = [];
  for (const m of text.matchAll(/\S+/gu)) {
    const start = m.index;
    let i = start;
    for (const ch of m[0]) {
      i += ch.length;
      if (CJK_CHAR.test(ch) && i < start + m[0].length) cuts.push(i);
    }
    cuts.push(start + m[0].length);
  }
  return cuts;
}

/**
 * The longest prefix of `text` that ends at a word (or CJK character) and holds at most
 * `maxTokens` tokens of `counter` — counted, not estimated. Counts are assumed to grow with
 * the prefix (true of tokenizers up to merges at the cut), so the cut is found by bisection.
 */
export function truncateToTokens(text: string, maxTokens: number, counter: TokenCounter): Truncated {
  const whole = counter.count(text);
  if (whole <= maxTokens) return { text, tokens: whole, truncated: false, words: countWords(text) };
  const cuts = cutPoints(text);
  const fits = (k: number) => counter.count(text.slice(0, cuts[k])) <= maxTokens;
  // Gallop so that the counts stay on prefixes near the budget, then bisect.
  let lo = -1; // largest index known to fit (-1: none)
  let hi = cuts.length; // smallest index known not to fit
  for (let step = Math.max(1, maxTokens); ; step *= 2) {
    const k = lo + step;
    if (k >= hi) break;
    if (fits(k)) lo = k;
    else {
      hi = k;
      break;
    }
  }
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (fits(mid)) lo = mid;
    else hi = mid;
  }
  const kept = lo < 0 ? '' : text.slice(0, cuts[lo]);
  return { text: kept, tokens: counter.count(kept), truncated: true, words: countWords(kept) };
}

/** Fills `{name}` placeholders (single pass, so text that holds braces is left alone). */
function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (m, k: string) => (k in values ? values[k]! : m));
}

/** The prompt around the document text, with the blank lines of empty placeholders folded. */
function instructions(template: string, values: Record<string, string>): [string, string] {
  const [before = '', after = ''] = fill(template, { ...values, document_text: '\u0000' })
    .replace(/\n{3,}/g, '\n\n')
    .split('\u0000');
  return [before, after];
}

function addendum(language: string | undefined): string {
  return language && language.toLowerCase().split('-')[0] !== 'en' ? LANGUAGE_ADDENDUM : '';
}

function truncationMessage(t: Truncated): string {
  return t.truncated ? fill(TRUNCATION_MESSAGE, { num_words: String(t.words) }) : '';
}

function build(template: string, docText: string, options: DocContextOptions, values: Record<string, string>): ChatMessage[] {
  const t = truncateToTokens(docText, options.maxTokens, options.counter);
  const [before, after] = instructions(template, {
    ...values,
    non_english_addendum: addendum(options.language),
    truncation_message: truncationMessage(t),
  });
  return [{ role: 'user', content: `${before}${t.text}${after}` }];
}

/** dsRAG's get_document_title prompt for `docText`, cut to `options.maxTokens`. */
export function titleMessages(docText: string, options: DocContextOptions): ChatMessage[] {
  return build(DOCUMENT_TITLE_PROMPT, docText, options, { document_title_guidance: options.guidance?.trim() ?? '' });
}

/** dsRAG's get_document_summary prompt for `docText` named `title`, cut to `options.maxTokens`. */
export function summaryMessages(docText: string, title: string, options: DocContextOptions): ChatMessage[] {
  return build(DOCUMENT_SUMMARIZATION_PROMPT, docText, options, {
    document_summarization_guidance: options.guidance?.trim() ?? '',
    document_title: title.trim(),
  });
}

// ---- cleaning the replies ---------------------------------------------------------------------

const ABBREVIATIONS = new Set(['mr', 'mrs', 'ms', 'dr', 'st', 'inc', 'co', 'corp', 'ltd', 'jr', 'sr', 'vs', 'etc', 'e.g', 'i.e', 'no', 'vol', 'fig', 'pp', 'approx', 'al']);

const QUOTES = /^["'“”‘’«»„`]+|["'“”‘’«»„`]+$/g;

/** Markdown emphasis and code marks around or inside a line, and a heading or list marker in front. */
function dropMarkdown(line: string): string {
  return line
    .replace(/^\s*(#{1,6}\s+|[-*+]\s+|>\s*)/, '')
    .replace(/(\*\*|__)(.*?)\1/g, '$2')
    .replace(/(^|\W)[*_](\S(?:.*?\S)?)[*_](?=\W|$)/g, '$1$2')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/^[*_`]+|[*_`]+$/g, '');
}

function cap(text: string, max: number): string {
  if (text.length <= max) return text;
  // Up to the last space of the first `max` characters (a word that ends there is whole).
  const space = text.slice(0, max).lastIndexOf(' ');
  const kept = space > max / 2 ? text.slice(0, space) : text.slice(0, max - 1);
  return `${kept.replace(/[\s,;:.–—-]+$/u, '')}…`;
}

/**
 * A title from the model's reply: the first line with text, without a "Title:" label,
 * Markdown or surrounding quotes, at most MAX_TITLE_CHARS characters.
 */
export function cleanTitle(reply: string): string {
  const lines = dropThinking(reply)
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => /[\p{L}\p{N}]/u.test(l));
  let t = lines[0] ?? '';
  for (let i = 0; i < 4; i++) {
    const before = t;
    t = dropMarkdown(t).trim();
    t = t.replace(/^(?:the\s+)?(?:document(?:'s)?\s+)?title(?:\s+of\s+(?:the|this)\s+document)?(?:\s*[:：]|\s+is\s*[:：]?)\s*/iu, '').trim();
    t = t.replace(/^(["“‘'«])(.*)["”’'»]\.?$/u, '$2').trim();
    t = t.replace(QUOTES, '').trim();
    if (t === before) break;
  }
  t = t.replace(/\s+/g, ' ');
  // A full stop closing the reply is not part of a title ("… Handbook."), unless it ends an abbreviation.
  const last = /(\S+)\.$/u.exec(t)?.[1]?.toLowerCase();
  if (last !== undefined && !ABBREVIATIONS.has(last) && !/^(\p{L}\.)*\p{L}$/u.test(last)) t = t.slice(0, -1);
  return cap(t, MAX_TITLE_CHARS);
}

/** Index just after the first sentence's end mark, or -1. "U.S.", "e.g." and the like are not ends. */
function firstSentenceEnd(text: string): number {
  for (const m of text.matchAll(/[.!?。！？]+["'”’)\]]*/gu)) {
    const end = m.index + m[0].length;
    const next = text.slice(end);
    if (/[。！？]/u.test(m[0])) return end;
    if (next.length && !/^\s+\S/u.test(next)) continue; // "3.5", "example.com"
    if (!next.length) return end;
    if (m[0][0] === '.') {
      const word = /(\S+)$/u.exec(text.slice(0, m.index))?.[1] ?? '';
      const bare = word.replace(/^["'“‘(\[]+/u, '').toLowerCase();
      if (/^\p{L}$/u.test(bare) || /^(\p{L}\.)+\p{L}$/u.test(bare) || ABBREVIATIONS.has(bare)) continue;
      if (/^\s+\p{Ll}/u.test(next)) continue; // a lower-case word goes on with the same sentence
    }
    return end;
  }
  return -1;
}

/**
 * One sentence from the model's reply: lines joined, without Markdown, a "Summary:" label or
 * surrounding quotes, cut after its first sentence, at most MAX_SUMMARY_CHARS characters.
 */
export function cleanSummary(reply: string): string {
  let t = dropThinking(reply)
    .split(/\r?\n/)
    .map((l) => dropMarkdown(l.trim()).trim())
    .filter(Boolean)
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
  t = t.replace(/^summary\s*[:：]\s*/i, '').trim();
  t = t.replace(QUOTES, '').trim();
  const end = firstSentenceEnd(t);
  if (end > 0) t = t.slice(0, end).trim();
  // A closing quote left after the sentence's full stop, with no opening one.
  if (/^[^"“]*\.["”]$/u.test(t)) t = t.slice(0, -1);
  return cap(t, MAX_SUMMARY_CHARS);
}
