import { unzipSync, type UnzipFileInfo } from 'fflate';
import { parseDocument } from 'htmlparser2';
import type { ChildNode, Document as XmlDocument, Element } from 'domhandler';
import { LoaderError } from './builder';

/**
 * Limits checked from each entry's header BEFORE it is inflated, so a decompression bomb
 * (a few KB that inflate to gigabytes) is refused without using the memory. A header that
 * lies about its size cannot get past them either: fflate inflates into a buffer of the
 * declared size and stops there.
 */
export const ZIP_LIMITS = {
  /** Largest inflated entry. */
  maxEntryBytes: 256 * 1024 * 1024,
  /** Largest inflated total of the entries a loader reads. */
  maxTotalBytes: 512 * 1024 * 1024,
  /** Largest inflated/compressed ratio of an entry over 1 MB inflated (office XML is 5–50). */
  maxRatio: 200,
};

/** Entries loaders read as text (XML, XHTML, package files); everything else is media. */
const TEXT_PART = /(\.(xml|rels|xhtml|html?|opf|ncx|txt)|^mimetype)$/i;

/** The zip's first bytes are an OLE2 compound file: an encrypted OOXML file, or Word/Excel/PowerPoint 97–2003. */
export function isCompoundFile(bytes: Uint8Array): boolean {
  return bytes.length >= 8 && bytes[0] === 0xd0 && bytes[1] === 0xcf && bytes[2] === 0x11 && bytes[3] === 0xe0 && bytes[4] === 0xa1 && bytes[5] === 0xb1;
}

export function isZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && (bytes[2] === 3 || bytes[2] === 5) && (bytes[3] === 4 || bytes[3] === 6);
}

/** A zip archive whose entries are read one by one, each checked against the limits first. */
export class ZipArchive {
  private readonly entries = new Map<string, UnzipFileInfo>();
  private inflated = 0;
  private textParts: Record<string, Uint8Array> | null = null;

  constructor(
    private readonly bytes: Uint8Array,
    private readonly fileName: string,
    /** What the file should be ("a Word document"): named in messages. */
    private readonly kind: string,
    private readonly limits = ZIP_LIMITS,
  ) {
    if (isCompoundFile(bytes)) {
      throw new LoaderError(`the file is password-protected (encrypted) or in an old binary Office format, not ${kind} as saved today: remove the password, or save it again as .docx, .xlsx or .pptx`, fileName);
    }
    if (!isZip(bytes)) throw new LoaderError(`not ${kind}: the file is not a zip archive`, fileName);
    try {
      // A filter that extracts nothing lists the entries without inflating any.
      unzipSync(bytes, { filter: (f) => (this.entries.set(f.name, f), false) });
    } catch (e) {
      throw new LoaderError(`the file is corrupt or truncated: its zip cannot be read (${(e as Error).message})`, fileName);
    }
  }

  get names(): string[] {
    return [...this.entries.keys()];
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** Throws a LoaderError naming the limit an entry would exceed once inflated (checked from its header alone). */
  check(name: string): void {
    const info = this.entries.get(name);
    if (!info) return;
    const mb = (n: number) => `${(n / 1048576).toFixed(0)} MB`;
    if (info.originalSize > this.limits.maxEntryBytes) {
      throw new LoaderError(`refused as a possible decompression bomb: ${name} would inflate to ${mb(info.originalSize)}, over the ${mb(this.limits.maxEntryBytes)} limit per entry`, this.fileName);
    }
    if (this.inflated + info.originalSize > this.limits.maxTotalBytes) {
      throw new LoaderError(`refused as a possible decompression bomb: its entries would inflate to more than the ${mb(this.limits.maxTotalBytes)} limit in all`, this.fileName);
    }
    const ratio = info.originalSize / Math.max(1, info.size);
    if (info.originalSize > 1048576 && ratio > this.limits.maxRatio) {
      throw new LoaderError(`refused as a possible decompression bomb: ${name} would inflate ${Math.round(ratio)} times its size, over the limit of ${this.limits.maxRatio} times`, this.fileName);
    }
  }

  /** Checks entries another library will inflate (mammoth): each, and their total. */
  checkAll(names: readonly string[]): void {
    let total = 0;
    for (const n of names) {
      this.check(n);
      total += this.entries.get(n)?.originalSize ?? 0;
    }
    if (total > this.limits.maxTotalBytes) {
      throw new LoaderError(`refused as a possible decompression bomb: its entries would inflate to more than the ${(this.limits.maxTotalBytes / 1048576).toFixed(0)} MB limit in all`, this.fileName);
    }
  }

  /** An entry's bytes, or null when there is no such entry. Throws a LoaderError naming the limit a bomb exceeds. */
  bytesOf(name: string): Uint8Array | null {
    if (!this.entries.has(name)) return null;
    if (!TEXT_PART.test(name)) return this.inflate((f) => f.name === name)[name] ?? null;
    // The text parts are inflated in one pass on first use (one walk of the archive, not one
    // per slide or sheet), after all of them passed the limits; media (images, fonts) never are.
    this.textParts ??= (this.checkAll(this.names.filter((n) => TEXT_PART.test(n))), this.inflate((f) => TEXT_PART.test(f.name)));
    return this.textParts[name] ?? null;
  }

  private inflate(filter: (f: UnzipFileInfo) => boolean): Record<string, Uint8Array> {
    for (const [n, info] of this.entries) {
      if (!filter(info)) continue;
      this.check(n);
      this.inflated += info.originalSize;
    }
    try {
      return unzipSync(this.bytes, { filter });
    } catch (e) {
      throw new LoaderError(`the file is corrupt or truncated: an entry cannot be inflated (${(e as Error).message})`, this.fileName);
    }
  }

  text(name: string): string | null {
    const data = this.bytesOf(name);
    return data ? new TextDecoder('utf-8').decode(data) : null;
  }

  /** An entry's XML, or null when absent. */
  xml(name: string): XmlDocument | null {
    const t = this.text(name);
    return t === null ? null : parseXml(t);
  }

  /** An entry the format cannot do without: its absence means the zip is not this format. */
  requireXml(name: string): XmlDocument {
    const doc = this.xml(name);
    if (!doc) throw new LoaderError(`a zip archive, but not ${this.kind} (it has no ${name})`, this.fileName);
    return doc;
  }
}

/** XML with htmlparser2 in XML mode: names keep their prefixes ("w:p", "text:h"); entities decoded. */
export function parseXml(text: string): XmlDocument {
  return parseDocument(text, { xmlMode: true, decodeEntities: true });
}

export function isElement(n: ChildNode): n is Element {
  return n.type === 'tag' || n.type === 'script' || n.type === 'style';
}

export function childElements(el: { children: ChildNode[] }, name?: string): Element[] {
  return el.children.filter((c): c is Element => isElement(c) && (name === undefined || c.name === name));
}

/** Descendants named `name`, in document order (not descending into a match). */
export function findAll(el: { children: ChildNode[] }, name: string | ((n: string) => boolean), out: Element[] = []): Element[] {
  const test = typeof name === 'string' ? (n: string) => n === name : name;
  for (const c of el.children) {
    if (!isElement(c)) continue;
    if (test(c.name)) out.push(c);
    else findAll(c, name, out);
  }
  return out;
}

export function findFirst(el: { children: ChildNode[] }, name: string): Element | null {
  for (const c of el.children) {
    if (!isElement(c)) continue;
    if (c.name === name) return c;
    const inner = findFirst(c, name);
    if (inner) return inner;
  }
  return null;
}

/** Resolves a relationship target (OOXML .rels, relative to the part's folder). */
export function resolvePath(base: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  const parts = base.split('/').slice(0, -1);
  for (const seg of target.split('/')) {
    if (seg === '..') parts.pop();
    else if (seg !== '.' && seg !== '') parts.push(seg);
  }
  return parts.join('/');
}

/** An OOXML part's relationships: id → resolved target path. */
export function relationships(zip: ZipArchive, part: string): Map<string, { target: string; type: string }> {
  const dir = part.split('/').slice(0, -1).join('/');
  const relsName = `${dir ? dir + '/' : ''}_rels/${part.split('/').pop()}.rels`;
  const doc = zip.xml(relsName);
  const out = new Map<string, { target: string; type: string }>();
  if (!doc) return out;
  for (const r of findAll(doc, 'Relationship')) {
    const { Id, Target, Type, TargetMode } = r.attribs;
    if (Id && Target && TargetMode !== 'External') out.set(Id, { target: resolvePath(part, Target), type: Type ?? '' });
  }
  return out;
}

/** OOXML core properties (docProps/core.xml): title and author, when set. */
export function coreProperties(zip: ZipArchive): { title: string | null; author: string | null; created: string | null; modified: string | null } {
  const doc = zip.xml('docProps/core.xml');
  const get = (n: string) => {
    const el = doc ? findFirst(doc, n) : null;
    const t = el ? textOf(el).trim() : '';
    return t || null;
  };
  return { title: get('dc:title'), author: get('dc:creator'), created: get('dcterms:created'), modified: get('dcterms:modified') };
}

/** All text under a node, concatenated. */
export function textOf(n: ChildNode | { children: ChildNode[] }): string {
  if ('type' in n && n.type === 'text') return (n as unknown as { data: string }).data;
  if (!('children' in n)) return '';
  let s = '';
  for (const c of n.children) s += textOf(c);
  return s;
}
