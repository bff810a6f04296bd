import { DocumentBuilder, collapseSpaces } from './builder';

/**
 * A line ending so is a sentence, not a heading. Terminal_Punctuation (Unicode) covers every
 * script's full stops and question marks: Devanagari । ॥, Arabic ؟ ، and Urdu ۔, Armenian ։,
 * Ethiopic ።, Myanmar ။ besides . ! ? ; : , and their CJK forms (the list knew only those).
 */
const END_PUNCT = /[\p{Terminal_Punctuation}…)"'”’»]$/u;

/** Does the file wrap its lines at a fixed width (soft breaks), like 72-column text? */
function isHardWrapped(lines: string[]): boolean {
  const lens = lines.map((l) => l.trimEnd().length).filter((n) => n > 0).sort((a, b) => a - b);
  if (lens.length < 10) return false;
  const p95 = lens[Math.floor(lens.length * 0.95)]!;
  if (p95 > 120) return false;
  const near = lens.filter((n) => n >= 0.7 * p95).length;
  return near / lens.length >= 0.5;
}

function isHeadingParagraph(lines: string[], next: string[] | undefined): boolean {
  if (!next || lines.length > 2) return false;
  return lines.every((l) => l.length <= 80 && !END_PUNCT.test(l)) && next.join(' ').length > 0;
}

function isAllCaps(s: string): boolean {
  const letters = s.replace(/[^\p{L}]/gu, '');
  return letters.length >= 2 && letters === letters.toUpperCase() && letters !== letters.toLowerCase();
}

/**
 * Words that name levels of a document's structure, outermost first (en, pt, es, de, fr, it,
 * nl, ro, pl, tr, ru, uk, el, vi, id, hi). Numbered headings like "PARTE I", "Chapter 3",
 * "Artigo 12.º" or "Глава 2" take their level from this order, so laws and manuals in plain
 * text get a real tree, not a flat list.
 */
const STRUCTURE_WORDS: string[][] = [
  ['part', 'parte', 'teil', 'partie', 'deel', 'partea', 'część', 'kısım', 'часть', 'частина', 'μέρος', 'phần', 'bagian', 'भाग'],
  ['book', 'livro', 'libro', 'buch', 'livre', 'boek', 'cartea', 'księga', 'kitap', 'книга', 'βιβλίο', 'quyển', 'buku'],
  ['title', 'título', 'titulo', 'titel', 'titre', 'titolo', 'titlul', 'tytuł', 'başlık', 'раздел', 'розділ', 'τίτλος'],
  ['chapter', 'capítulo', 'capitulo', 'kapitel', 'chapitre', 'capitolo', 'hoofdstuk', 'capitolul', 'rozdział', 'bölüm', 'глава', 'κεφάλαιο', 'chương', 'bab', 'अध्याय'],
  ['section', 'secção', 'seção', 'sección', 'seccion', 'abschnitt', 'sezione', 'afdeling', 'secțiunea', 'oddział', 'kesim', 'параграф', 'τμήμα', 'mục'],
  ['subsection', 'subsecção', 'subseção', 'subsección'],
  ['article', 'artigo', 'artículo', 'articulo', 'artikel', 'art', 'article', 'articolo', 'articolul', 'artykuł', 'madde', 'статья', 'стаття', 'άρθρο', 'điều', 'pasal', 'धारा', 'अनुच्छेद', '§'],
];

/**
 * Chinese, Japanese and Korean number the level's word: 第一章 / 第3条 (zh, ja), 제1장 / 제3조 (ko).
 * Each level character → its rank in STRUCTURE_WORDS.
 */
const CJK_LEVELS: Record<string, number> = { 编: 0, 編: 0, 편: 0, 卷: 1, 章: 3, 장: 3, 节: 4, 節: 4, 절: 4, 条: 6, 條: 6, 조: 6 };
const CJK_NUMBERED = /^(?:第\s*[一二三四五六七八九十百千零〇两\d]+\s*|제\s*\d+\s*)([编編편卷章장节節절条條조])/u;

/** The structure rank (index in STRUCTURE_WORDS) of a numbered heading, or -1. */
function structureRank(title: string): number {
  const cjk = CJK_NUMBERED.exec(title);
  if (cjk) return CJK_LEVELS[cjk[1]!] ?? -1;
  const m = /^(§|\p{L}+)\.?\s*(?:[IVXLCDM]+\b|\d+)/iu.exec(title);
  if (!m) return -1;
  const word = m[1]!.toLowerCase();
  return STRUCTURE_WORDS.findIndex((g) => g.includes(word));
}

/**
 * Plain text: blank lines separate paragraphs. Lines of hard-wrapped files are joined
 * with spaces; otherwise each line stays its own block (lists, verses, laws). A short
 * paragraph of one or two lines without final punctuation before a longer one is taken
 * as a heading: plain text has no markup to say so. Numbered headings ("PARTE I",
 * "Artigo 1.º") are levelled by the structure words present in the file; other headings
 * are level 1 in capitals, else 2.
 */
export function parsePlainText(text: string, builder: DocumentBuilder): void {
  const normalized = text.replace(/\r\n?/g, '\n').replace(/^\uFEFF/, '');
  const paragraphs = normalized
    .split(/\n[ \t]*\n+/)
    .map((p) => p.split('\n').map((l) => l.trim()).filter(Boolean))
    .filter((p) => p.length > 0);
  const wrapped = isHardWrapped(normalized.split('\n'));
  const isHeading = paragraphs.map((lines, i) => paragraphs.length > 2 && isHeadingParagraph(lines, paragraphs[i + 1]));
  // Ranks present in this file, outermost first: the first becomes level 1, and so on.
  const ranks = [...new Set(paragraphs.filter((_, i) => isHeading[i]).map((l) => structureRank(l[0]!)).filter((r) => r >= 0))].sort((a, b) => a - b);
  paragraphs.forEach((lines, i) => {
    if (isHeading[i]) {
      const rank = structureRank(lines[0]!);
      const level = rank >= 0 ? Math.min(6, ranks.indexOf(rank) + 1) : isAllCaps(lines[0]!) ? 1 : 2;
      builder.heading(level, lines.join(' — '));
    } else if (wrapped) {
      // The builder makes each break a space, or nothing between Chinese or Japanese characters.
      builder.block(dehyphenate(lines).join('\n'));
    } else {
      for (const line of lines) builder.block(collapseSpaces(line));
    }
  });
}

/**
 * Joins a word broken across wrapped lines ("manage-" + "ment"). A compound that happens
 * to break at its own hyphen ("well-" + "known") is joined too: without a dictionary the
 * two cannot be told apart, and broken words are by far the commoner case.
 */
export function dehyphenate(lines: string[]): string[] {
  const out: string[] = [];
  for (const line of lines) {
    const prev = out[out.length - 1];
    if (prev && /\p{Ll}-$/u.test(prev) && /^\p{Ll}/u.test(line)) {
      out[out.length - 1] = prev.slice(0, -1) + line;
    } else {
      out.push(line);
    }
  }
  return out;
}
