import { DocumentBuilder, LoaderError, collapseSpaces } from './builder';
import { decodeText } from './decode';
import type { OfficeInfo } from './docx';
import { parseHtml } from './html';
import { ZipArchive, findAll, findFirst, resolvePath, textOf } from './zip-xml';

/**
 * Hands one chapter's XHTML from the HTML loader to the book's builder with its headings
 * one level below the chapter's section, and without the heading that repeats the chapter
 * title (most books open a chapter with it).
 */
class ChapterBuilder extends DocumentBuilder {
  private skipped = false;
  constructor(
    private readonly target: DocumentBuilder,
    private readonly chapterTitle: string | null,
  ) {
    super();
  }
  override block(content: string, preformatted = false): { start: number; end: number } | null {
    return this.target.block(content, preformatted);
  }
  override heading(level: number, title: string): void {
    if (this.chapterTitle === null) return this.target.heading(level, title);
    if (!this.skipped && collapseSpaces(title).toLowerCase() === this.chapterTitle.toLowerCase()) {
      this.skipped = true;
      return;
    }
    this.target.heading(Math.min(6, level + 1), title);
  }
}

const stripFragment = (href: string) => decodeURIComponent(href.split('#')[0]!);

/** Chapter file → title, from the EPUB 3 navigation document (nav epub:type="toc") or the EPUB 2 NCX. */
function tableOfContents(zip: ZipArchive, opfPath: string, manifest: Map<string, { href: string; type: string; props: string }>, tocId: string | undefined): Map<string, string> {
  const titles = new Map<string, string>();
  const nav = [...manifest.values()].find((m) => m.props.split(/\s+/).includes('nav'));
  const navDoc = nav ? zip.xml(nav.href) : null;
  if (navDoc) {
    const toc = findAll(navDoc, 'nav').find((n) => (n.attribs['epub:type'] ?? '').includes('toc')) ?? findFirst(navDoc, 'nav');
    for (const a of toc ? findAll(toc, 'a') : []) {
      const file = resolvePath(nav!.href, stripFragment(a.attribs.href ?? ''));
      const title = collapseSpaces(textOf(a));
      if (title && !titles.has(file)) titles.set(file, title);
    }
  }
  const ncx = tocId ? manifest.get(tocId) : [...manifest.values()].find((m) => m.type === 'application/x-dtbncx+xml');
  const ncxDoc = ncx ? zip.xml(ncx.href) : null;
  if (ncxDoc && !titles.size) {
    for (const point of findAll(ncxDoc, 'navPoint').flatMap(function all(p): typeof p[] {
      return [p, ...findAll(p, 'navPoint').flatMap(all)];
    })) {
      const label = findFirst(point, 'text');
      const src = findFirst(point, 'content')?.attribs.src;
      if (!label || !src) continue;
      const file = resolvePath(ncx!.href, stripFragment(src));
      const title = collapseSpaces(textOf(label));
      if (title && !titles.has(file)) titles.set(file, title);
    }
  }
  void opfPath;
  return titles;
}

/**
 * EPUB: the package document (OPF) found through META-INF/container.xml; chapters in spine
 * order, each a level-1 section titled from the table of contents, its XHTML read by the
 * HTML loader. Title, author and language from the package metadata. DRM-encrypted
 * content is refused (its bytes are not text).
 */
export function parseEpub(bytes: Uint8Array, fileName: string, b: DocumentBuilder): OfficeInfo & { language?: string } {
  const zip = new ZipArchive(bytes, fileName, 'an EPUB e-book');
  const container = zip.requireXml('META-INF/container.xml');
  const opfPath = findFirst(container, 'rootfile')?.attribs['full-path'];
  const opf = opfPath ? zip.xml(opfPath) : null;
  if (!opfPath || !opf) throw new LoaderError('a zip archive, but not a readable EPUB (its package document is missing)', fileName);
  const encryption = zip.text('META-INF/encryption.xml');
  if (encryption && /<(enc:)?EncryptedData/.test(encryption) && !/http:\/\/www\.idpf\.org\/2008\/embedding|http:\/\/ns\.adobe\.com\/pdf\/enc#RC/.test(encryption)) {
    throw new LoaderError('the e-book is DRM-protected (its chapters are encrypted)', fileName);
  }
  const manifest = new Map<string, { href: string; type: string; props: string }>();
  for (const item of findAll(opf, 'item')) {
    const { id, href } = item.attribs;
    if (id && href) manifest.set(id, { href: resolvePath(opfPath, decodeURIComponent(href)), type: item.attribs['media-type'] ?? '', props: item.attribs.properties ?? '' });
  }
  const spine = findFirst(opf, 'spine');
  const titles = tableOfContents(zip, opfPath, manifest, spine?.attribs.toc);
  let chapters = 0;
  for (const ref of spine ? findAll(spine, 'itemref') : []) {
    const item = manifest.get(ref.attribs.idref ?? '');
    if (!item || !/html/.test(item.type)) continue;
    const data = zip.bytesOf(item.href);
    const decoded = data ? decodeText(data) : null;
    if (!decoded) continue;
    const title = titles.get(item.href) ?? null;
    const before = b.length;
    if (title) b.heading(1, title);
    parseHtml(decoded.text, new ChapterBuilder(b, title));
    if (b.length > before) chapters++;
  }
  if (!chapters) throw new LoaderError('the e-book has no readable chapters', fileName);
  const meta = (n: string) => {
    const el = findFirst(opf, n);
    return el ? collapseSpaces(textOf(el)) || undefined : undefined;
  };
  const language = meta('dc:language')?.split('-')[0]?.toLowerCase();
  const author = meta('dc:creator');
  return { title: meta('dc:title') ?? null, ...(author ? { author } : {}), ...(language ? { language } : {}) };
}
