import { Parser } from 'htmlparser2';
import type { DocumentBuilder } from './builder';

/** Elements whose content is never document text. */
const SKIP = new Set(['script', 'style', 'noscript', 'template', 'svg', 'math', 'iframe', 'object', 'canvas', 'head', 'button', 'select', 'textarea',
  // Ruby annotations (Japanese furigana, pinyin): a reading aid over the base text; kept, it split 東京 into 東とう京きょう.
  'rt', 'rp']);
/** Elements that end a block of text (a sentence never runs across them). */
const BLOCK = new Set([
  'p', 'div', 'section', 'article', 'main', 'aside', 'header', 'footer', 'nav', 'li', 'ul', 'ol', 'dl', 'dt', 'dd', 'br', 'hr',
  'table', 'tr', 'td', 'th', 'thead', 'tbody', 'caption', 'blockquote', 'pre', 'figure', 'figcaption', 'address', 'details', 'summary', 'form', 'fieldset', 'legend',
]);
const HEADING = /^h([1-6])$/;

export interface HtmlInfo {
  title: string | null;
  language: string | null;
  author: string | null;
  date: string | null;
  description: string | null;
}

/**
 * Walks HTML with htmlparser2 (a streaming parser: no DOM, so it runs in Node, a worker
 * and the CLI alike). h1–h6 open sections; block elements end paragraphs; scripts,
 * styles and other non-text elements are dropped. The text is only ever text: nothing
 * here produces markup.
 */
export function parseHtml(html: string, b: DocumentBuilder | null): HtmlInfo & { text: string } {
  const info: HtmlInfo = { title: null, language: null, author: null, date: null, description: null };
  let skipDepth = 0;
  let inTitle = false;
  let foreign = 0; // inside <svg> or <math>, whose <title> elements name icons, not the page
  let titleText = '';
  let pre = 0;
  let heading: { level: number; text: string } | null = null;
  let buffer = '';
  const plain: string[] = [];

  const flush = () => {
    if (heading) return;
    if (buffer.trim()) {
      b?.block(buffer, pre > 0);
      plain.push(buffer.replace(/\s+/g, ' ').trim());
    }
    buffer = '';
  };

  const parser = new Parser(
    {
      onopentag(name, attrs) {
        // The primary subtag ("en_US" and "en-GB" → "en"); a malformed tag is kept as it is, and the builder ignores it with a note.
        if (name === 'html' && attrs.lang) info.language = attrs.lang.trim().split(/[-_]/)[0]!.toLowerCase() || null;
        if (name === 'meta') {
          const key = (attrs.name ?? attrs.property ?? '').toLowerCase();
          const content = attrs.content?.trim();
          if (content) {
            if (key === 'author' || key === 'article:author') info.author ??= content;
            else if (key === 'description' || key === 'og:description') info.description ??= content;
            else if (key === 'date' || key === 'article:published_time' || key === 'dc.date' || key === 'dcterms.modified') info.date ??= content;
            else if (key === 'og:title' || key === 'dc.title') info.title ??= content;
          }
        }
        if (name === 'svg' || name === 'math') foreign++;
        if (name === 'title' && !foreign) inTitle = true;
        if (SKIP.has(name)) {
          skipDepth++;
          return;
        }
        if (skipDepth) return;
        const h = HEADING.exec(name);
        if (h) {
          flush();
          heading = { level: Number(h[1]), text: '' };
        } else if (BLOCK.has(name)) {
          if (heading) heading.text += ' ';
          else flush();
          if (name === 'pre') pre++;
        } else if (name === 'img' && attrs.alt && !heading) {
          buffer += ` ${attrs.alt} `;
        }
      },
      ontext(text) {
        if (inTitle) titleText += text;
        if (skipDepth) return;
        if (heading) heading.text += text;
        else buffer += text;
      },
      onclosetag(name) {
        if (name === 'title') inTitle = false;
        if (name === 'svg' || name === 'math') foreign = Math.max(0, foreign - 1);
        if (SKIP.has(name)) {
          skipDepth = Math.max(0, skipDepth - 1);
          return;
        }
        if (skipDepth) return;
        const h = HEADING.exec(name);
        if (h && heading) {
          const title = heading.text.replace(/\s+/g, ' ').trim();
          heading = null;
          if (title) {
            b?.heading(Number(h[1]), title);
            plain.push(title);
          }
        } else if (BLOCK.has(name)) {
          if (heading) heading.text += ' ';
          else flush();
          if (name === 'pre') pre = Math.max(0, pre - 1);
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, recognizeSelfClosing: true },
  );
  parser.write(html);
  parser.end();
  flush();
  const title = titleText.replace(/\s+/g, ' ').trim();
  if (title) info.title = title;
  return { ...info, text: plain.join('\n') };
}

/** Text content of an HTML fragment (raw HTML inside Markdown). */
export function htmlToText(html: string): string {
  return parseHtml(html, null).text;
}
