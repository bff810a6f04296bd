import { Parser } from 'htmlparser2';
import { Lexer, type Token, type Tokens } from 'marked';
import type { DocumentBuilder } from './builder';
import { htmlToText } from './html';

/** Plain text of marked's inline tokens: emphasis and links keep their words, images their alt text. */
function inlineText(tokens: Token[] | undefined, fallback = ''): string {
  if (!tokens) return fallback;
  let out = '';
  for (const t of tokens) {
    switch (t.type) {
      case 'image':
        out += (t as Tokens.Image).text;
        break;
      case 'br':
        out += ' ';
        break;
      case 'html':
        out += htmlToText((t as Tokens.HTML).text);
        break;
      case 'codespan':
      case 'escape':
      case 'text':
        out += 'tokens' in t && t.tokens ? inlineText(t.tokens as Token[]) : decodeEntities((t as Tokens.Text).text);
        break;
      default:
        out += 'tokens' in t && t.tokens ? inlineText(t.tokens as Token[]) : ((t as { text?: string }).text ?? '');
    }
  }
  return out;
}

/**
 * marked leaves named entities in text tokens (&eacute;, &euro;, and a bare "&" as &amp;: it
 * targets HTML output). htmlparser2's decoder (the HTML loader's) knows all of HTML's entities;
 * the hand-written list knew seven, so "Caf&eacute;" stayed in text, titles and BM25 terms.
 * A raw "<" in the text is escaped first, so nothing is read as a tag.
 */
function decodeEntities(s: string): string {
  if (!s.includes('&')) return s;
  let out = '';
  const parser = new Parser({ ontext: (t) => void (out += t) }, { decodeEntities: true });
  parser.write(s.replace(/</g, '&lt;'));
  parser.end();
  return out;
}

function blocks(tokens: Token[], b: DocumentBuilder): void {
  for (const t of tokens) {
    switch (t.type) {
      case 'heading': {
        const h = t as Tokens.Heading;
        b.heading(h.depth, inlineText(h.tokens, h.text));
        break;
      }
      case 'paragraph':
        b.block(inlineText((t as Tokens.Paragraph).tokens));
        break;
      case 'text':
        b.block(inlineText((t as Tokens.Text).tokens, (t as Tokens.Text).text));
        break;
      case 'list':
        for (const item of (t as Tokens.List).items) {
          // Each item is its own block so an item never runs into the next as one sentence.
          const nested = item.tokens.filter((x) => x.type === 'list');
          const own = item.tokens.filter((x) => x.type !== 'list');
          b.block(own.map((x) => ('tokens' in x && x.tokens ? inlineText(x.tokens as Token[]) : ((x as { text?: string }).text ?? ''))).join(' '));
          blocks(nested, b);
        }
        break;
      case 'blockquote':
        blocks((t as Tokens.Blockquote).tokens, b);
        break;
      case 'code':
        b.block((t as Tokens.Code).text, true);
        break;
      case 'table': {
        const table = t as Tokens.Table;
        const row = (cells: Tokens.TableCell[]) => cells.map((c) => inlineText(c.tokens, c.text)).join(' | ');
        b.block(row(table.header));
        for (const r of table.rows) b.block(row(r));
        break;
      }
      case 'html':
        b.block(htmlToText((t as Tokens.HTML).text));
        break;
      default:
        break; // space, hr, def: no text
    }
  }
}

/** YAML front matter: only `title:` is read; the block is never shown as text. */
function splitFrontMatter(src: string): { body: string; title: string | null } {
  const m = /^---\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)\r?\n/.exec(src);
  if (!m) return { body: src, title: null };
  const title = /^title:\s*["']?(.+?)["']?\s*$/m.exec(m[1]!)?.[1] ?? null;
  return { body: src.slice(m[0].length), title };
}

/**
 * Markdown with marked's lexer (CommonMark/GFM): ATX and Setext headings give the
 * section tree; inline markup is dropped, its words kept; raw HTML is reduced to text.
 * Returns the title: front matter's, else the first level-1 heading.
 */
export function parseMarkdown(src: string, b: DocumentBuilder): string | null {
  const { body, title } = splitFrontMatter(src.replace(/^\uFEFF/, ''));
  const tokens = new Lexer({ gfm: true }).lex(body);
  blocks(tokens, b);
  const h1 = tokens.find((t): t is Tokens.Heading => t.type === 'heading' && (t as Tokens.Heading).depth === 1);
  return title ?? (h1 ? inlineText(h1.tokens, h1.text) : null);
}
