import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SHARED_DATA } from '../../node/setup';
import { documentFromText } from '../documents/load';
import { RetrievalEngine } from '../engine';
import type { StructureParams, UnitKind } from '../retrieve/params';
import { words } from '../segment/words';
import { unitChars } from './tables';
import { UnitWords } from './unit-words';

const squad = JSON.parse(readFileSync(`${SHARED_DATA}/squad_en/squad-dev-v1.1.from-explorer.json`, 'utf8')) as { data: { title: string; paragraphs: { context: string }[] }[] };

const tricky = [
  // Marks and format characters right after whitespace, at the start of sentences and chunks.
  'A word \u0301with a mark after a space. \u00ADSoft hyphen starts this one. Then\u200Bzero width. Numbers 3.14 and e.g. U.S.A. end here.',
  // Emoji sequences and flags.
  'The family 👨‍👩‍👧 came home. 🇫🇷🇩🇪 are two flags. Emoji 😀 and a back\\slash and a\ttab.',
  // A run too long for a segmenter window: the document is segmented unit by unit.
  `${'x'.repeat(3000)} then a tail sentence. And another one.`,
];
// A Chinese sentence longer than the smallest chunk level is cut into parts inside a run of words.
const cjk = `北京是中华人民共和国的首都。${'上海是中国最大的城市也是重要的经济中心和国际大都市'.repeat(8)}。东京是日本的首都，人口众多。ภาษาไทย เป็น ภาษา ราชการ ของ ประเทศไทย`;

function engineOf(texts: string[], structure: Partial<StructureParams>): RetrievalEngine {
  const e = new RetrievalEngine({ structure });
  e.addDocuments(texts.map((t, i) => documentFromText(t, `doc ${i}.md`, 'md')));
  return e;
}

function check(e: RetrievalEngine): { units: number; alone: number } {
  const uw = new UnitWords(e.corpus.docs);
  let units = 0;
  for (const kind of ['sentence', 'leaf', 'chunk'] as UnitKind[]) {
    for (let id = 0; id < e.unitCount(kind); id++) {
      const [doc, start, end] = unitChars(e, kind, id);
      const full = e.unitText(kind, id);
      const expected = words(full, e.corpus.docs[doc]!.language);
      const got = uw.of(full, doc, start, end);
      if (got.join('|') !== expected.join('|')) expect({ kind, id, got, expected }).toBeNull();
      units++;
    }
  }
  return { units, alone: uw.segmentedAlone };
}

describe("UnitWords: a unit's BM25 terms from one segmentation of its document", () => {
  const articles = squad.data.slice(0, 3).map((a) => `# ${a.title}\n\n${a.paragraphs.slice(0, 15).map((p) => p.context).join('\n\n')}\n`);

  it('equals segmenting each unit text on its own, and slices nearly every English unit', () => {
    const { units, alone } = check(engineOf(articles, { chunkLevels: [512, 128, 32] }));
    expect(units).toBeGreaterThan(500);
    expect(alone / units).toBeLessThan(0.05);
  });

  it('equals it with headers before the text (title, section)', () => {
    const { units, alone } = check(engineOf(articles, { headers: { enabled: true, title: true, section: true, fields: [] } }));
    expect(alone / units).toBeLessThan(0.05);
  });

  it('equals it on marks, emoji, long runs, Chinese and Thai, segmenting alone where slicing would not be exact', () => {
    const { units, alone } = check(engineOf([...tricky, cjk], { naive: { size: 16, overlap: 4 }, chunkLevels: [64, 16] }));
    expect(alone).toBeGreaterThan(0);
    expect(alone).toBeLessThan(units);
  });

  it('segments alone a slice that starts or ends inside a word, or follows its prefix without a space', () => {
    const text = 'One foo_bar word here. Then café\u0301s follow.';
    const e = engineOf([text], {});
    const doc = e.corpus.docs[0]!;
    const at = (s: string) => doc.text.indexOf(s);
    const uw = new UnitWords(e.corpus.docs);
    const cases: [string, number, number][] = [
      ['', at('bar word'), at(' here')], // starts inside "foo_bar"
      ['', at('One'), at('_bar') + 2], // ends inside it
      ['', at('word'), at('word') + 4], // a whole word: sliced
      ['Header', at('word'), at(' here')], // "Headerword" is one word
      ['Header\n\n', at('word'), at(' here')], // after a blank line: sliced
    ];
    const got = cases.map(([prefix, a, b]) => uw.of(prefix + doc.text.slice(a, b), 0, a, b));
    expect(got).toEqual(cases.map(([prefix, a, b]) => words(prefix + doc.text.slice(a, b), doc.language)));
    expect(got).toEqual([['bar', 'word'], ['one', 'foo_b'], ['word'], ['headerword'], ['header', 'word']]);
    expect(uw.segmentedAlone).toBe(3);
  });
});
