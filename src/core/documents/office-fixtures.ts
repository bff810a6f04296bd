/**
 * Office files, e-books and sheets written by hand as zip + XML (fflate), for the loader
 * tests, the e2e spec and the bench: the smallest files each application opens, holding
 * the structures the loaders must keep. Test data only.
 */
import { strToU8, zipSync } from 'fflate';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';

export function zip(files: Record<string, string | Uint8Array>): Uint8Array {
  const entries: Record<string, Uint8Array> = {};
  for (const [name, data] of Object.entries(files)) entries[name] = typeof data === 'string' ? strToU8(data) : data;
  return zipSync(entries);
}

const core = (title: string, author = 'Ana Lima') =>
  `${XML}<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/"><dc:title>${esc(title)}</dc:title><dc:creator>${esc(author)}</dc:creator><dcterms:created>2024-03-01T10:00:00Z</dcterms:created></cp:coreProperties>`;
const rels = (items: [id: string, type: string, target: string][]) =>
  `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${items.map(([id, type, target]) => `<Relationship Id="${id}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/${type}" Target="${target}"/>`).join('')}</Relationships>`;

/** A paragraph, a heading (level 1–2) or a table in a .docx body; `[^n]` in text cites footnote n. */
export type DocxPart = { p: string } | { h: 1 | 2; text: string } | { table: string[][] } | { li: string };

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
function wRuns(text: string): string {
  return text
    .split(/(\[\^\d+\])/)
    .map((part) => {
      const note = /^\[\^(\d+)\]$/.exec(part);
      if (note) return `<w:r><w:rPr><w:rStyle w:val="FootnoteReference"/></w:rPr><w:footnoteReference w:id="${note[1]}"/></w:r>`;
      return part ? `<w:r><w:t xml:space="preserve">${esc(part)}</w:t></w:r>` : '';
    })
    .join('');
}

export function docx(body: DocxPart[], options: { title?: string; footnotes?: Record<number, string> } = {}): Uint8Array {
  const xml = body
    .map((part) => {
      if ('p' in part) return `<w:p>${wRuns(part.p)}</w:p>`;
      if ('li' in part) return `<w:p><w:pPr><w:pStyle w:val="ListParagraph"/><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr></w:pPr>${wRuns(part.li)}</w:p>`;
      if ('h' in part) return `<w:p><w:pPr><w:pStyle w:val="Heading${part.h}"/></w:pPr>${wRuns(part.text)}</w:p>`;
      return `<w:tbl>${part.table.map((row) => `<w:tr>${row.map((c) => `<w:tc><w:p>${wRuns(c)}</w:p></w:tc>`).join('')}</w:tr>`).join('')}</w:tbl>`;
    })
    .join('');
  const notes = Object.entries(options.footnotes ?? {})
    .map(([id, text]) => `<w:footnote w:id="${id}"><w:p><w:r><w:footnoteRef/></w:r><w:r><w:t xml:space="preserve"> ${esc(text)}</w:t></w:r></w:p></w:footnote>`)
    .join('');
  const style = (id: string, name: string) => `<w:style w:type="paragraph" w:styleId="${id}"><w:name w:val="${name}"/></w:style>`;
  return zip({
    '[Content_Types].xml': `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/footnotes.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml"/><Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/><Override PartName="/word/numbering.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.numbering+xml"/><Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/></Types>`,
    '_rels/.rels': `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/></Relationships>`,
    'word/_rels/document.xml.rels': rels([
      ['rId1', 'styles', 'styles.xml'],
      ['rId2', 'footnotes', 'footnotes.xml'],
      ['rId3', 'numbering', 'numbering.xml'],
    ]),
    'word/document.xml': `${XML}<w:document ${W}><w:body>${xml}</w:body></w:document>`,
    'word/styles.xml': `${XML}<w:styles ${W}>${style('Heading1', 'heading 1')}${style('Heading2', 'heading 2')}${style('ListParagraph', 'List Paragraph')}</w:styles>`,
    'word/numbering.xml': `${XML}<w:numbering ${W}><w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:numFmt w:val="bullet"/></w:lvl></w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num></w:numbering>`,
    'word/footnotes.xml': `${XML}<w:footnotes ${W}><w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote><w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r></w:p></w:footnote>${notes}</w:footnotes>`,
    ...(options.title ? { 'docProps/core.xml': core(options.title) } : {}),
  });
}

const ODF_NS =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0"';

function odf(mime: string, body: string, title?: string, encrypted = false): Uint8Array {
  return zip({
    mimetype: mime,
    'META-INF/manifest.xml': `${XML}<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="/" manifest:media-type="${mime}"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml">${encrypted ? '<manifest:encryption-data manifest:checksum-type="SHA1/1K" manifest:checksum="x"><manifest:algorithm manifest:algorithm-name="Blowfish CFB"/></manifest:encryption-data>' : ''}</manifest:file-entry></manifest:manifest>`,
    'content.xml': `${XML}<office:document-content ${ODF_NS}><office:body>${body}</office:body></office:document-content>`,
    'meta.xml': `${XML}<office:document-meta ${ODF_NS}><office:meta>${title ? `<dc:title>${esc(title)}</dc:title>` : ''}<meta:initial-creator>Ana Lima</meta:initial-creator><dc:language>pt-BR</dc:language></office:meta></office:document-meta>`,
  });
}

const odfTable = (rows: string[][]) =>
  `<table:table table:name="T">${rows.map((r) => `<table:table-row>${r.map((c) => `<table:table-cell office:value-type="string"><text:p>${esc(c)}</text:p></table:table-cell>`).join('')}</table:table-row>`).join('')}</table:table>`;

export type OdtPart = { p: string; note?: string } | { h: number; text: string } | { table: string[][] } | { li: string };

export function odt(body: OdtPart[], options: { title?: string; encrypted?: boolean } = {}): Uint8Array {
  let n = 0;
  const xml = body
    .map((part) => {
      if ('p' in part) {
        const note = part.note ? `<text:note text:note-class="footnote"><text:note-citation>${++n}</text:note-citation><text:note-body><text:p>${esc(part.note)}</text:p></text:note-body></text:note>` : '';
        return `<text:p>${esc(part.p)}${note}</text:p>`;
      }
      if ('li' in part) return `<text:list><text:list-item><text:p>${esc(part.li)}</text:p></text:list-item></text:list>`;
      if ('h' in part) return `<text:h text:outline-level="${part.h}">${esc(part.text)}</text:h>`;
      return odfTable(part.table);
    })
    .join('');
  return odf('application/vnd.oasis.opendocument.text', `<office:text>${xml}</office:text>`, options.title, options.encrypted);
}

export interface SlideSpec {
  title?: string;
  body: string[];
  notes?: string;
  table?: string[][];
}

export function pptx(slides: SlideSpec[], title?: string): Uint8Array {
  const P = 'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"';
  const paras = (lines: string[]) => lines.map((l) => `<a:p><a:r><a:t>${esc(l)}</a:t></a:r></a:p>`).join('');
  const shape = (type: string | null, lines: string[]) => `<p:sp><p:nvSpPr><p:cNvPr id="2" name="s"/><p:cNvSpPr/><p:nvPr>${type ? `<p:ph type="${type}"/>` : ''}</p:nvPr></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/>${paras(lines)}</p:txBody></p:sp>`;
  const files: Record<string, string> = {
    '[Content_Types].xml': `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/></Types>`,
    'ppt/presentation.xml': `${XML}<p:presentation ${P}><p:sldIdLst>${slides.map((_, i) => `<p:sldId id="${256 + i}" r:id="rId${i + 1}"/>`).join('')}</p:sldIdLst></p:presentation>`,
    'ppt/_rels/presentation.xml.rels': rels(slides.map((_, i) => [`rId${i + 1}`, 'slide', `slides/slide${i + 1}.xml`])),
  };
  if (title) files['docProps/core.xml'] = core(title);
  slides.forEach((s, i) => {
    const table = s.table
      ? `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="9" name="t"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr><a:graphic><a:graphicData><a:tbl>${s.table.map((r) => `<a:tr>${r.map((c) => `<a:tc><a:txBody>${paras([c])}</a:txBody></a:tc>`).join('')}</a:tr>`).join('')}</a:tbl></a:graphicData></a:graphic></p:graphicFrame>`
      : '';
    files[`ppt/slides/slide${i + 1}.xml`] = `${XML}<p:sld ${P}><p:cSld><p:spTree>${s.title ? shape('title', [s.title]) : ''}${shape('body', s.body)}${table}${shape('sldNum', [String(i + 1)])}</p:spTree></p:cSld></p:sld>`;
    if (s.notes) {
      files[`ppt/slides/_rels/slide${i + 1}.xml.rels`] = rels([['rId1', 'notesSlide', `../notesSlides/notesSlide${i + 1}.xml`]]);
      files[`ppt/notesSlides/notesSlide${i + 1}.xml`] = `${XML}<p:notes ${P}><p:cSld><p:spTree>${shape('sldImg', [])}${shape('body', [s.notes])}</p:spTree></p:cSld></p:notes>`;
    }
  });
  return zip(files);
}

export function odp(slides: SlideSpec[], title?: string): Uint8Array {
  const frame = (cls: string, lines: string[]) => `<draw:frame presentation:class="${cls}"><draw:text-box>${lines.map((l) => `<text:p>${esc(l)}</text:p>`).join('')}</draw:text-box></draw:frame>`;
  const pages = slides
    .map(
      (s, i) =>
        `<draw:page draw:name="page${i + 1}">${s.title ? frame('title', [s.title]) : ''}${frame('outline', s.body)}${s.table ? `<draw:frame>${odfTable(s.table)}</draw:frame>` : ''}${s.notes ? `<presentation:notes>${frame('notes', [s.notes])}</presentation:notes>` : ''}</draw:page>`,
    )
    .join('');
  return odf('application/vnd.oasis.opendocument.presentation', `<office:presentation>${pages}</office:presentation>`, title);
}

/** A cell: text, a number, or a formula with its cached value. */
export type XlsxCell = string | number | null | { formula: string; value: number };

export function xlsx(sheets: { name: string; rows: XlsxCell[][] }[], title?: string): Uint8Array {
  const strings: string[] = [];
  const sst = (s: string) => {
    let i = strings.indexOf(s);
    if (i < 0) i = strings.push(s) - 1;
    return i;
  };
  const col = (j: number) => (j >= 26 ? String.fromCharCode(64 + Math.floor(j / 26)) : '') + String.fromCharCode(65 + (j % 26));
  const sheetXml = (rows: XlsxCell[][]) =>
    rows
      .map((r, i) => {
        const cells = r
          .map((c, j) => {
            const ref = `${col(j)}${i + 1}`;
            if (c === null || c === '') return '';
            if (typeof c === 'number') return `<c r="${ref}"><v>${c}</v></c>`;
            if (typeof c === 'object') return `<c r="${ref}"><f>${esc(c.formula)}</f><v>${c.value}</v></c>`;
            return `<c r="${ref}" t="s"><v>${sst(c)}</v></c>`;
          })
          .join('');
        return `<row r="${i + 1}">${cells}</row>`;
      })
      .join('');
  const files: Record<string, string> = {
    '[Content_Types].xml': `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/></Types>`,
    'xl/workbook.xml': `${XML}<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>${sheets.map((s, i) => `<sheet name="${esc(s.name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('')}</sheets></workbook>`,
    'xl/_rels/workbook.xml.rels': rels(sheets.map((_, i) => [`rId${i + 1}`, 'worksheet', `worksheets/sheet${i + 1}.xml`])),
  };
  sheets.forEach((s, i) => (files[`xl/worksheets/sheet${i + 1}.xml`] = `${XML}<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${sheetXml(s.rows)}</sheetData></worksheet>`));
  files['xl/sharedStrings.xml'] = `${XML}<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">${strings.map((s) => `<si><t>${esc(s)}</t></si>`).join('')}</sst>`;
  if (title) files['docProps/core.xml'] = core(title);
  return zip(files);
}

export function ods(sheets: { name: string; rows: string[][] }[]): Uint8Array {
  const tables = sheets.map((s) => odfTable(s.rows).replace('table:name="T"', `table:name="${esc(s.name)}"`)).join('');
  return odf('application/vnd.oasis.opendocument.spreadsheet', `<office:spreadsheet>${tables}</office:spreadsheet>`);
}

export interface EpubChapter {
  /** The table of contents' title. */
  title: string;
  /** The chapter's XHTML body. */
  html: string;
}

/** An EPUB 3 book; `order` lists the chapters in spine order (by index into `chapters`, which is manifest order). */
export function epub(chapters: EpubChapter[], options: { title: string; author?: string; language?: string; order?: number[] }): Uint8Array {
  const order = options.order ?? chapters.map((_, i) => i);
  const files: Record<string, string> = {
    mimetype: 'application/epub+zip',
    'META-INF/container.xml': `${XML}<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>`,
    'OEBPS/content.opf': `${XML}<package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>${esc(options.title)}</dc:title>${options.author ? `<dc:creator>${esc(options.author)}</dc:creator>` : ''}<dc:language>${options.language ?? 'en'}</dc:language></metadata><manifest><item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>${chapters.map((_, i) => `<item id="c${i}" href="text/ch${i}.xhtml" media-type="application/xhtml+xml"/>`).join('')}</manifest><spine>${order.map((i) => `<itemref idref="c${i}"/>`).join('')}</spine></package>`,
    'OEBPS/nav.xhtml': `${XML}<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><body><nav epub:type="toc"><ol>${chapters.map((c, i) => `<li><a href="text/ch${i}.xhtml">${esc(c.title)}</a></li>`).join('')}</ol></nav></body></html>`,
  };
  chapters.forEach((c, i) => (files[`OEBPS/text/ch${i}.xhtml`] = `${XML}<html xmlns="http://www.w3.org/1999/xhtml"><head><title>${esc(c.title)}</title></head><body>${c.html}</body></html>`));
  return zip(files);
}

/** A page of a hand-written PDF: an image only (8-bit grey pixels, shown at `dpi`), or a line of real text in Helvetica. */
export type PdfPageSpec = { gray: Uint8Array; width: number; height: number; dpi: number } | { text: string };

/**
 * A minimal PDF: image pages hold only a picture of text (as a scanner makes them), no
 * text layer; text pages hold real text. Image data is Flate-compressed, losslessly.
 */
export function imagePdf(pages: PdfPageSpec[], deflate: (data: Uint8Array) => Uint8Array): Uint8Array {
  const objects: (string | Uint8Array)[][] = [];
  const add = (...parts: (string | Uint8Array)[]) => objects.push(parts) + 2; // ids from 3 (1 catalog, 2 pages)
  const kids: number[] = [];
  const font = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  for (const p of pages) {
    if ('text' in p) {
      const content = `BT /F1 18 Tf 72 720 Td (${p.text.replace(/[()\\]/g, (c) => '\\' + c)}) Tj ET`;
      const c = add(`<< /Length ${content.length} >>\nstream\n${content}\nendstream`);
      kids.push(add(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${font} 0 R >> >> /Contents ${c} 0 R >>`));
    } else {
      const data = deflate(p.gray);
      const img = add(`<< /Type /XObject /Subtype /Image /Width ${p.width} /Height ${p.height} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode /Length ${data.length} >>\nstream\n`, data, '\nendstream');
      const w = (p.width * 72) / p.dpi;
      const h = (p.height * 72) / p.dpi;
      const content = `q ${w.toFixed(2)} 0 0 ${h.toFixed(2)} 0 0 cm /Im0 Do Q`;
      const c = add(`<< /Length ${content.length} >>\nstream\n${content}\nendstream`);
      kids.push(add(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${w.toFixed(2)} ${h.toFixed(2)}] /Resources << /XObject << /Im0 ${img} 0 R >> >> /Contents ${c} 0 R >>`));
    }
  }
  const all: (string | Uint8Array)[][] = [['<< /Type /Catalog /Pages 2 0 R >>'], [`<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`], ...objects];
  const chunks: Uint8Array[] = [];
  let offset = 0;
  const push = (x: string | Uint8Array) => {
    const u = typeof x === 'string' ? strToU8(x, true) : x;
    chunks.push(u);
    offset += u.length;
  };
  push('%PDF-1.4\n');
  const offsets: number[] = [];
  all.forEach((parts, i) => {
    offsets.push(offset);
    push(`${i + 1} 0 obj\n`);
    parts.forEach(push);
    push('\nendobj\n');
  });
  const xref = offset;
  push(`xref\n0 ${all.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`);
  push(`trailer\n<< /Size ${all.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  const out = new Uint8Array(offset);
  let at = 0;
  for (const c of chunks) (out.set(c, at), (at += c.length));
  return out;
}
