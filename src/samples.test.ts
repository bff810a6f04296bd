/**
 * The shipped sample corpus (public/samples/): the manifest lists exactly the files that are
 * there, every entry carries a licence and an attribution, ATTRIBUTION.md credits each file,
 * and nothing whose licence does not allow shipping (Portuguese constitution, UDHR, SciFact,
 * SQuAD/XQuAD) slipped in.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

interface SampleEntry {
  file: string;
  title: string;
  language: string;
  format: string;
  license: string;
  source: string;
  attribution: string;
}

const dir = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'public', 'samples');
const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as {
  questions: { file: string; description: string };
  documents: SampleEntry[];
};
const present = readdirSync(dir).filter((f) => f !== 'manifest.json' && f !== 'ATTRIBUTION.md' && f !== manifest.questions.file);

/** Staged documents that must never be shipped (licence unverified, non-commercial, share-alike). */
const EXCLUDED = [
  /constitui[cç][aã]o/i,
  /portugu[eê]s[ae]?[_-]?const/i,
  /udhr/i,
  /human[_-]?rights/i,
  /scifact/i,
  /corpus\.jsonl$/i,
  /queries\.jsonl$/i,
  /qrels/i,
  /squad/i,
  /xquad/i,
];
/** Texts that would betray an excluded document shipped under another name. */
const EXCLUDED_TEXT = [
  'Constituição da República Portuguesa',
  'Universal Declaration of Human Rights',
  '世界人权宣言',
  'Office of the High Commissioner for Human Rights',
];

describe('sample corpus (public/samples)', () => {
  it('manifest lists exactly the files present', () => {
    const listed = manifest.documents.map((d) => d.file);
    expect(new Set(listed).size).toBe(listed.length);
    expect([...listed].sort()).toEqual([...present].sort());
  });

  it('every entry is complete: title, language, format, licence, source, attribution', () => {
    expect(manifest.documents.length).toBeGreaterThan(0);
    for (const d of manifest.documents) {
      for (const key of ['file', 'title', 'language', 'format', 'license', 'source', 'attribution'] as const) {
        expect(typeof d[key], `${d.file}: ${key}`).toBe('string');
        expect(d[key].trim().length, `${d.file}: ${key}`).toBeGreaterThan(0);
      }
      expect(['en', 'pt', 'zh']).toContain(d.language);
      expect(['pdf', 'md']).toContain(d.format);
      expect(d.file.toLowerCase().endsWith(`.${d.format}`), d.file).toBe(true);
      // Nothing non-commercial or share-alike.
      expect(d.license, d.file).not.toMatch(/\bNC\b|non-?commercial|\bSA\b|share-?alike/i);
    }
  });

  it('covers the three languages and both formats', () => {
    const langs = new Set(manifest.documents.map((d) => d.language));
    const formats = new Set(manifest.documents.map((d) => d.format));
    expect([...langs].sort()).toEqual(['en', 'pt', 'zh']);
    expect([...formats].sort()).toEqual(['md', 'pdf']);
  });

  it('the CC BY 4.0 document carries the required attribution, in the file and in ATTRIBUTION.md', () => {
    const ccby = manifest.documents.filter((d) => /CC BY 4\.0/.test(d.license));
    expect(ccby.length).toBeGreaterThan(0);
    const credits = readFileSync(join(dir, 'ATTRIBUTION.md'), 'utf8');
    expect(credits).toContain('https://creativecommons.org/licenses/by/4.0/');
    for (const d of ccby) {
      expect(d.attribution).toMatch(/FaQuAD/);
      expect(d.attribution).toMatch(/Sayama/);
      const text = readFileSync(join(dir, d.file), 'utf8');
      expect(text).toMatch(/FaQuAD \(Sayama et al\., 2019\)/);
      expect(text).toContain('CC BY 4.0');
    }
  });

  it('ATTRIBUTION.md credits every shipped file', () => {
    const credits = readFileSync(join(dir, 'ATTRIBUTION.md'), 'utf8');
    for (const d of manifest.documents) expect(credits, d.file).toContain('`' + d.file + '`');
  });

  it('ships nothing from the excluded set', () => {
    for (const f of present) {
      for (const re of EXCLUDED) expect(f, `${f} matches ${re}`).not.toMatch(re);
      if (f.endsWith('.md')) {
        const text = readFileSync(join(dir, f), 'utf8');
        for (const t of EXCLUDED_TEXT) expect(text.includes(t), `${f} contains "${t}"`).toBe(false);
      }
    }
  });

  it('stays small (under 4 MB in all)', () => {
    const total = present.reduce((sum, f) => sum + statSync(join(dir, f)).size, 0);
    expect(total).toBeLessThan(4 * 1024 * 1024);
  });
});

describe('the sample question set (public/samples/questions.jsonl)', () => {
  it('resolves every question onto the sample documents as the page loads them, none skipped', async () => {
    const { loadFiles } = await import('./cli/engine-setup');
    const { importJsonl } = await import('./core/questions/formats/jsonl');
    const docs = await loadFiles(manifest.documents.map((d) => join(dir, d.file)));
    const { set, skipped } = importJsonl(readFileSync(join(dir, manifest.questions.file), 'utf8'), docs, manifest.questions.file);
    expect(skipped).toEqual([]);
    expect(set.questions).toHaveLength(17);
    expect(set.questions.filter((q) => q.unanswerable).map((q) => q.id)).toEqual(['unanswerable-portugal-stadium', 'unanswerable-nist-price']);
    for (const q of set.questions) {
      expect(q.source).toEqual({ kind: 'imported', file: "the sample corpus's question set (answers marked by hand)" });
      for (const a of q.answers) expect(docs.find((d) => d.id === a.doc)!.text.slice(a.start, a.end), q.id).toBe(a.text);
    }
    // Every document is asked about.
    expect(new Set(set.questions.flatMap((q) => q.answers.map((a) => a.doc))).size).toBe(8);
  }, 60_000);
});
