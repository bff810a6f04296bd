import { SHARED_DATA } from '../../node/paths';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { abbreviationRules } from './abbreviations';
import { BEYOND_LATIN, splitSentences, type Span } from './sentences';

const DEMO = `${SHARED_DATA}/demo_docs`;

/** The sentences of `text` as strings (what a user sees). */
function sentences(text: string, language = 'en'): string[] {
  return splitSentences(text, language).map((s) => text.slice(s.start, s.end));
}

/** Invariants every split must satisfy, on any input. */
function expectWellFormed(text: string, spans: Span[]): void {
  let prevEnd = 0;
  for (const s of spans) {
    expect(s.start).toBeGreaterThanOrEqual(prevEnd);
    expect(s.end).toBeGreaterThan(s.start);
    expect(s.end).toBeLessThanOrEqual(text.length);
    const t = text.slice(s.start, s.end);
    expect(t).toBe(t.trim());
    // A newline is always a boundary, so no sentence spans one.
    expect(t).not.toMatch(/[\n\r\u2029]/);
    prevEnd = s.end;
  }
  // Nothing but whitespace is left out between sentences.
  let covered = 0;
  for (const s of spans) {
    expect(text.slice(covered, s.start).trim()).toBe('');
    covered = s.end;
  }
  expect(text.slice(covered).trim()).toBe('');
}

describe('splitSentences: English abbreviations', () => {
  it('keeps titles and "p.m." inside one sentence', () => {
    expect(sentences('Dr. Smith met Mr. Jones at 5 p.m. and left.')).toEqual(['Dr. Smith met Mr. Jones at 5 p.m. and left.']);
  });

  it('ends a sentence after "U.S." when a typical opener follows', () => {
    expect(sentences('He lives in the U.S. The weather is fine.')).toEqual(['He lives in the U.S.', 'The weather is fine.']);
    expect(sentences('Meet me at 5 p.m. The bus leaves then.')).toEqual(['Meet me at 5 p.m.', 'The bus leaves then.']);
  });

  it('does not split "U.S." before a capitalised non-opener', () => {
    expect(sentences('The U.S. Army arrived.')).toEqual(['The U.S. Army arrived.']);
    expect(sentences('He works for the U.S. Department of State. It is large.')).toEqual([
      'He works for the U.S. Department of State.',
      'It is large.',
    ]);
  });

  it('never splits after "e.g." or "i.e."', () => {
    expect(sentences('Use a tool, e.g. Hammer or saw, to do it. Then rest.')).toEqual([
      'Use a tool, e.g. Hammer or saw, to do it.',
      'Then rest.',
    ]);
    expect(sentences('Some fruit, i.e. The sweet kind, is ripe. Eat it.')).toEqual(['Some fruit, i.e. The sweet kind, is ripe.', 'Eat it.']);
  });

  it('keeps other always-joined abbreviations ("Prof.", "Fig.", "No.", "St.")', () => {
    expect(sentences('I met Prof. Brown at St. Mary. He was kind.')).toEqual(['I met Prof. Brown at St. Mary.', 'He was kind.']);
    expect(sentences('See Fig. 3 and No. 7 for details. It shows X.')).toEqual(['See Fig. 3 and No. 7 for details.', 'It shows X.']);
  });

  it('keeps a list number attached to its item', () => {
    expect(sentences('1. First item is here. 2. Second item.')).toEqual(['1. First item is here.', '2. Second item.']);
    expect(sentences('iv. Fourth point. It matters.')).toEqual(['iv. Fourth point.', 'It matters.']);
    expect(sentences('B. Second item. It matters.')).toEqual(['B. Second item.', 'It matters.']);
    expect(sentences('1. First item\n2. Second item')).toEqual(['1. First item', '2. Second item']);
  });

  it('keeps initials ("John F. Kennedy") inside the sentence', () => {
    expect(sentences('John F. Kennedy was president. He died in 1963.')).toEqual(['John F. Kennedy was president.', 'He died in 1963.']);
  });

  it('still splits ordinary sentences and a sentence ending in a number', () => {
    expect(sentences('It rained. It was 1984. Then it stopped!  Really?')).toEqual([
      'It rained.',
      'It was 1984.',
      'Then it stopped!',
      'Really?',
    ]);
  });

  it('uses the English rules for unknown languages and region subtags', () => {
    expect(sentences('Dr. Martin est arrivé. Il pleut.', 'fr')).toEqual(['Dr. Martin est arrivé.', 'Il pleut.']);
    expect(sentences('Dr. Smith met Mr. Jones.', 'en-GB')).toEqual(['Dr. Smith met Mr. Jones.']);
  });
});

describe('splitSentences: other languages', () => {
  it('Portuguese: "Sr." and "Sra." do not end sentences', () => {
    expect(sentences('O Sr. Silva chegou. A Sra. Costa saiu.', 'pt')).toEqual(['O Sr. Silva chegou.', 'A Sra. Costa saiu.']);
  });

  it('Portuguese: "Art. 5.º" stays one sentence', () => {
    expect(sentences('Art. 5.º diz isso.', 'pt')).toEqual(['Art. 5.º diz isso.']);
    expect(sentences('Ver o Art. 5 da lei. Depois o resto.', 'pt')).toEqual(['Ver o Art. 5 da lei.', 'Depois o resto.']);
  });

  it('Portuguese rules apply to "pt-BR" but not to English ("Dra." is Portuguese only)', () => {
    expect(sentences('A Dra. Costa saiu. Ele ficou.', 'pt-BR')).toEqual(['A Dra. Costa saiu.', 'Ele ficou.']);
    expect(sentences('A Dra. Costa saiu. Ele ficou.', 'en')).toEqual(['A Dra.', 'Costa saiu.', 'Ele ficou.']);
  });

  it('Spanish: "Sr." and "Dra." do not end sentences', () => {
    expect(sentences('El Sr. García llegó. La Dra. López salió.', 'es')).toEqual(['El Sr. García llegó.', 'La Dra. López salió.']);
  });

  it('German: "Dr." and the ordinal "3." do not end sentences', () => {
    expect(sentences('Dr. Müller kam am 3. Mai. Er ging.', 'de')).toEqual(['Dr. Müller kam am 3. Mai.', 'Er ging.']);
    expect(sentences('Vgl. Abs. 3 und z.B. Die Regel. Das gilt.', 'de')).toEqual(['Vgl. Abs. 3 und z.B. Die Regel.', 'Das gilt.']);
  });

  it('Chinese: splits after 。！？', () => {
    const text = '中华人民共和国是工人阶级领导的。国家的一切权力属于人民！是吗？';
    expect(sentences(text, 'zh')).toEqual(['中华人民共和国是工人阶级领导的。', '国家的一切权力属于人民！', '是吗？']);
    expect(splitSentences(text, 'zh')).toEqual([
      { start: 0, end: 16 },
      { start: 16, end: 28 },
      { start: 28, end: 31 },
    ]);
  });
});

describe('splitSentences: scripts without sentence punctuation, and quotations', () => {
  it('finds every Greek, Thai, Lao, Khmer and Myanmar character with its cheap range test first (no such text skips the rules)', () => {
    const missed: string[] = [];
    let letters = 0;
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      const c = String.fromCodePoint(cp);
      if (!/[\p{Script=Greek}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u.test(c)) continue;
      letters++;
      if (!BEYOND_LATIN.test(c)) missed.push(cp.toString(16));
    }
    expect(missed).toEqual([]);
    expect(letters).toBeGreaterThan(900);
    // Latin text with curly quotes, dashes and accents needs neither rule.
    expect(BEYOND_LATIN.test('“Café” — it’s naïve… ½ ×')).toBe(false);
  });

  it('Thai: sentences are runs of phrases of at least ten words, not every space (Thai has no full stop)', () => {
    // The first paragraph of the parallel set's Thai article: three sentences, as its English original has.
    const text =
      'เมืองเคสโตรว์เติบโตขึ้นตรงจุดที่ถนนเกลือสายเก่าข้ามแม่น้ำอัลเดอร์ เป็นเวลาหลายศตวรรษที่นักเดินทางต้องจ่ายเงินให้คนแจวเรือพาข้ามน้ำ และในฤดูหนาวท่าข้ามมักปิดนานหลายสัปดาห์ ในปี 1782 สภาเมืองตัดสินใจสร้างสะพานหิน และขอให้วิศวกรโทมัส วาร์เนล เป็นผู้เขียนแบบ';
    expect(sentences(text, 'th')).toEqual([
      'เมืองเคสโตรว์เติบโตขึ้นตรงจุดที่ถนนเกลือสายเก่าข้ามแม่น้ำอัลเดอร์',
      // "และ" (and) opens a phrase that continues the sentence.
      'เป็นเวลาหลายศตวรรษที่นักเดินทางต้องจ่ายเงินให้คนแจวเรือพาข้ามน้ำ และในฤดูหนาวท่าข้ามมักปิดนานหลายสัปดาห์',
      // A space before a number is inside a phrase; the name's space leaves a tail of six words, joined.
      'ในปี 1782 สภาเมืองตัดสินใจสร้างสะพานหิน และขอให้วิศวกรโทมัส วาร์เนล เป็นผู้เขียนแบบ',
    ]);
    expectWellFormed(text, splitSentences(text, 'th'));
  });

  it('Thai: phrases shorter than the floor stay together; by script, whatever the document\'s tag says', () => {
    const text = 'วันนี้อากาศดีมาก ฉันจะไปเที่ยวทะเล พรุ่งนี้จะกลับบ้าน\n\nราคา 100 บาท ซื้อที่ Central ได้';
    expect(sentences(text, 'th')).toEqual(['วันนี้อากาศดีมาก ฉันจะไปเที่ยวทะเล พรุ่งนี้จะกลับบ้าน', 'ราคา 100 บาท ซื้อที่ Central ได้']);
    const mixed = 'Hello there. เมืองเคสโตรว์เติบโตขึ้นตรงจุดที่ถนนเกลือสายเก่าข้ามแม่น้ำอัลเดอร์ เป็นเวลาหลายศตวรรษที่นักเดินทางต้องจ่ายเงินให้คนแจวเรือพาข้ามน้ำ';
    expect(splitSentences(mixed, 'en').length).toBe(splitSentences(mixed, 'th').length);
    expect(sentences(mixed, 'en')).toEqual(['Hello there.', 'เมืองเคสโตรว์เติบโตขึ้นตรงจุดที่ถนนเกลือสายเก่าข้ามแม่น้ำอัลเดอร์', 'เป็นเวลาหลายศตวรรษที่นักเดินทางต้องจ่ายเงินให้คนแจวเรือพาข้ามน้ำ']);
  });

  it('Japanese: a quotation closed after its 。 and followed by と or って stays in its sentence', () => {
    expect(sentences('彼は「明日来ます。」と言った。それから帰った。', 'ja')).toEqual(['彼は「明日来ます。」と言った。', 'それから帰った。']);
    expect(sentences('「本当？」って聞いた。「はい。」それで終わり。', 'ja')).toEqual(['「本当？」って聞いた。', '「はい。」', 'それで終わり。']);
  });

  it('an opening bracket or quote right after a full stop starts the next sentence (ICU left it on the previous one)', () => {
    expect(sentences('他走了。“我来了。”她说。', 'zh')).toEqual(['他走了。', '“我来了。”', '她说。']);
    expect(sentences('他走了。「我来了。」她说。', 'zh')).toEqual(['他走了。', '「我来了。」', '她说。']);
    // A German closing “ is followed by a space: it stays.
    expect(sentences('Er sagte: „Ja.“ Dann ging er.', 'de')).toEqual(['Er sagte: „Ja.“', 'Dann ging er.']);
  });
});

describe('splitSentences: boundaries and whitespace', () => {
  it('treats a newline as a boundary, even without punctuation', () => {
    expect(sentences('First line without stop\nSecond line')).toEqual(['First line without stop', 'Second line']);
    expect(sentences('Windows line\r\nNext line')).toEqual(['Windows line', 'Next line']);
  });

  it('never joins across a newline, even after an abbreviation or a list number', () => {
    expect(sentences('Ask the Dr.\nSmith arrived.')).toEqual(['Ask the Dr.', 'Smith arrived.']);
    expect(sentences('1.\nFirst item')).toEqual(['1.', 'First item']);
  });

  it('returns spans without surrounding whitespace', () => {
    const text = '  Hello world.   Next one.  ';
    expect(splitSentences(text)).toEqual([
      { start: 2, end: 14 },
      { start: 17, end: 26 },
    ]);
  });

  it('returns nothing for empty or blank text', () => {
    expect(splitSentences('')).toEqual([]);
    expect(splitSentences(' \n\t \n')).toEqual([]);
  });

  it('produces well-formed spans on mixed input', () => {
    const text = '  Dr. A. B. Smith arrived.\n\n1. One.  2. Two!\r\n中文。好吗？  The U.S. The end. ';
    const spans = splitSentences(text);
    expectWellFormed(text, spans);
    expect(spans.map((s) => text.slice(s.start, s.end))).toEqual([
      'Dr. A. B. Smith arrived.',
      '1. One.',
      '2. Two!',
      '中文。',
      '好吗？',
      'The U.S.',
      'The end.',
    ]);
  });
});

describe('splitSentences: an abbreviation per language does not end a sentence', () => {
  const cases: [string, string, string[]][] = [
    ['el', 'Ο κ. Παπαδόπουλος ήρθε στην Αθήνα. Έμεινε δύο μέρες.', ['Ο κ. Παπαδόπουλος ήρθε στην Αθήνα.', 'Έμεινε δύο μέρες.']],
    ['hi', 'डॉ. शर्मा कल दिल्ली गए। वे आज लौटेंगे।', ['डॉ. शर्मा कल दिल्ली गए।', 'वे आज लौटेंगे।']],
    ['vi', 'Ông sống ở TP. Hồ Chí Minh từ nhỏ. Bà sống ở Hà Nội.', ['Ông sống ở TP. Hồ Chí Minh từ nhỏ.', 'Bà sống ở Hà Nội.']],
    ['ru', 'Проф. Иванов живёт на ул. Ленина. Он приехал вчера.', ['Проф. Иванов живёт на ул. Ленина.', 'Он приехал вчера.']],
    ['tr', 'Doç. Ayşe Kaya ve Prof. Mehmet Demir geldi. Toplantı başladı.', ['Doç. Ayşe Kaya ve Prof. Mehmet Demir geldi.', 'Toplantı başladı.']],
    ['ro', 'Dl. Popescu locuiește pe Str. Lipscani. El a venit ieri.', ['Dl. Popescu locuiește pe Str. Lipscani.', 'El a venit ieri.']],
    ['fr', 'M. Dupont a vu Mme Martin. Il est parti.', ['M. Dupont a vu Mme Martin.', 'Il est parti.']],
    ['it', 'Il dott. Rossi ha visto la sig.ra Bianchi. Poi è partito.', ['Il dott. Rossi ha visto la sig.ra Bianchi.', 'Poi è partito.']],
    ['nl', 'Dhr. Jansen sprak met mevr. De Vries. Daarna vertrok hij.', ['Dhr. Jansen sprak met mevr. De Vries.', 'Daarna vertrok hij.']],
    ['pl', 'Dr Nowak mieszka przy ul. Długiej. On przyjechał wczoraj.', ['Dr Nowak mieszka przy ul. Długiej.', 'On przyjechał wczoraj.']],
    ['id', 'Bpk. Budi tinggal di Jl. Sudirman. Dia datang kemarin.', ['Bpk. Budi tinggal di Jl. Sudirman.', 'Dia datang kemarin.']],
    ['ar', 'قال د. أحمد إن المشروع نجح. وبدأ العمل في الربيع.', ['قال د. أحمد إن المشروع نجح.', 'وبدأ العمل في الربيع.']],
  ];
  for (const [language, text, expected] of cases) {
    it(`${language}: ${expected[0]}`, () => expect(sentences(text, language)).toEqual(expected));
  }

  it('an abbreviation that may end a sentence still does before an opener (ru "г.", ar "م.")', () => {
    expect(sentences('Мост открыли в 1793 г. В том же году открылся рынок.', 'ru')).toEqual(['Мост открыли в 1793 г.', 'В том же году открылся рынок.']);
    expect(sentences('افتتح الجسر عام 1793 م. وفي العام نفسه افتتحت السوق.', 'ar')).toEqual(['افتتح الجسر عام 1793 م.', 'وفي العام نفسه افتتحت السوق.']);
  });

  it('initials of a script without case are initials: "ए. आर. रहमान"', () => {
    expect(sentences('ए. आर. रहमान ने संगीत दिया। फ़िल्म सफल रही।', 'hi')).toEqual(['ए. आर. रहमान ने संगीत दिया।', 'फ़िल्म सफल रही।']);
  });
});

describe('splitSentences: a Greek ";" is a question mark by script, not only by the document\'s tag', () => {
  it('ends a Greek question in a document tagged English (a mixed or misdetected one)', () => {
    const text = 'See the note below. Ποιος έχτισε τον Παρθενώνα; Τον έχτισαν οι αρχαίοι Αθηναίοι.';
    expect(sentences(text, 'en')).toEqual(['See the note below.', 'Ποιος έχτισε τον Παρθενώνα;', 'Τον έχτισαν οι αρχαίοι Αθηναίοι.']);
    // U+037E, the Greek question mark itself, is ";" in NFC.
    expect(sentences('Τι ώρα είναι\u037e Είναι δύο.'.normalize('NFC'), 'en')).toEqual(['Τι ώρα είναι;', 'Είναι δύο.']);
  });

  it('leaves a Latin semicolon alone', () => {
    expect(sentences('It rained; we stayed home. Then it stopped.', 'en')).toEqual(['It rained; we stayed home.', 'Then it stopped.']);
  });
});

describe('abbreviationRules', () => {
  it('maps region subtags to the base language and caches the rules', () => {
    expect(abbreviationRules('pt-BR')).toBe(abbreviationRules('pt'));
    expect(abbreviationRules('PT').always.has('sra')).toBe(true);
  });

  it('falls back to English for languages without a list', () => {
    expect(abbreviationRules('sv')).toBe(abbreviationRules('en'));
    expect(abbreviationRules('zh')).toBe(abbreviationRules('en'));
    expect(abbreviationRules('fr')).not.toBe(abbreviationRules('en'));
    expect(abbreviationRules('ms')).toBe(abbreviationRules('id'));
  });

  it('separates always-joined abbreviations from those that may end a sentence', () => {
    const en = abbreviationRules('en');
    expect(en.always.has('dr')).toBe(true);
    expect(en.always.has('e.g')).toBe(true);
    expect(en.unlessOpener.has('u.s')).toBe(true);
    expect(en.always.has('u.s')).toBe(false);
    expect(en.openers.has('the')).toBe(true);
  });

  it('treats "number + dot" as an ordinal only in German', () => {
    expect(abbreviationRules('de').ordinalDot).toBe(true);
    expect(abbreviationRules('en').ordinalDot).toBe(false);
    expect(abbreviationRules('pt').ordinalDot).toBe(false);
  });
});

describe('splitSentences on the shared demo documents', () => {
  const BARE_LIST_NUMBER = /^\(?(?:\d{1,3}|[a-z]|[ivxlcdm]{1,6})[.)]$/i;

  it('Portuguese constitution: abbreviations and list numbers never stand alone', () => {
    const text = readFileSync(`${DEMO}/pt/constituicao_republica_portuguesa.txt`, 'utf8');
    const spans = splitSentences(text, 'pt');
    expectWellFormed(text, spans);
    const all = spans.map((s) => text.slice(s.start, s.end));
    expect(all.length).toBeGreaterThan(1500);
    for (const s of all) {
      expect(s).not.toMatch(BARE_LIST_NUMBER);
      expect(s).not.toMatch(/^(?:Sr|Sra|Dr|Art|n)\.$/);
      expect(s).not.toMatch(/^n\.º$/);
      expect(s).not.toMatch(/(?:^|\s)(?:n\.º|Sr\.|Sra\.|Art\.)$/);
    }
    expect(all).toContain('A Revolução restituiu aos Portugueses os direitos e liberdades fundamentais.');
    expect(all).toContain(
      'No exercício destes direitos e liberdades, os legítimos representantes do povo reúnem-se para elaborar uma Constituição que corresponde às aspirações do país.',
    );
    // A numbered paragraph keeps its number, and "n.º 1" does not break it.
    expect(all).toContain('3. A inobservância do disposto no n.º 1 envolve, de pleno direito, a perda do cargo.');
    expect(all).toContain('1. A soberania, una e indivisível, reside no povo, que a exerce segundo as formas previstas na Constituição.');
    // Headings are their own lines, so their own sentences.
    expect(all).toContain('Artigo 1.º');
  });

  it('Chinese constitution: splits on 。！？ and keeps each sentence whole', () => {
    const text = readFileSync(`${DEMO}/zh/prc_constitution.md`, 'utf8');
    const spans = splitSentences(text, 'zh');
    expectWellFormed(text, spans);
    const all = spans.map((s) => text.slice(s.start, s.end));
    expect(all.length).toBeGreaterThan(300);
    const i = all.indexOf('中国是世界上历史最悠久的国家之一。');
    expect(i).toBeGreaterThanOrEqual(0);
    expect(all[i + 1]).toBe('中国各族人民共同创造了光辉灿烂的文化，具有光荣的革命传统。');
    // A full stop only ever ends a sentence (possibly before a closing quote or bracket).
    for (const s of all) expect(s).not.toMatch(/[。！？](?![。！？”’」』）)]*$)/);
  });

  it('UDHR (English): the sentences of Article 1', () => {
    const text = readFileSync(`${DEMO}/udhr/udhr_eng.md`, 'utf8');
    const spans = splitSentences(text, 'en');
    expectWellFormed(text, spans);
    const all = spans.map((s) => text.slice(s.start, s.end));
    const i = all.indexOf('All human beings are born free and equal in dignity and rights.');
    expect(i).toBeGreaterThan(0);
    expect(all[i - 1]).toBe('## Article 1');
    expect(all[i + 1]).toBe(
      'They are endowed with reason and conscience and should act towards one another in a spirit of brotherhood.',
    );
    expect(all[i + 2]).toBe('## Article 2');
  });

  it('World Factbook (US): "Mt." and "St." do not end sentences', () => {
    const text = readFileSync(`${DEMO}/en/factbook/us.md`, 'utf8');
    const spans = splitSentences(text, 'en');
    expectWellFormed(text, spans);
    const all = spans.map((s) => text.slice(s.start, s.end));
    const line = text.split('\n').find((l) => l.includes('Mt. McKinley is the highest point'))!;
    expect(line).toBeDefined();
    expect(all).toContain(line.trim());
    expect(all.some((s) => /(?:^|\s)(?:Mt|St)\.$/.test(s))).toBe(false);
  });

  it('German XQuAD paragraph: well-formed, ordinals and abbreviations kept', () => {
    const xquad = JSON.parse(readFileSync(`${SHARED_DATA}/xquad/xquad.de.json`, 'utf8')) as {
      data: { paragraphs: { context: string }[] }[];
    };
    const contexts = xquad.data.flatMap((a) => a.paragraphs.map((p) => p.context)).slice(0, 60);
    for (const text of contexts) {
      const spans = splitSentences(text, 'de');
      expectWellFormed(text, spans);
      for (const s of spans) expect(text.slice(s.start, s.end)).not.toMatch(/^(?:\d{1,4}|Dr|Nr|bzw|vgl|z\.B)\.$/i);
    }
  });
});
