/**
 * Text is composed to NFC where it enters: a decomposed (NFD) file — macOS writes names and text
 * so, some PDFs and Word files too — is the same document as its composed twin.
 */
import { describe, expect, it } from 'vitest';
import { RetrievalEngine } from '../engine';
import { documentFromText, loadDocument } from './load';

const TEXT = `# Hà Nội và Huế

Thủ đô Hà Nội nằm bên sông Hồng. Cố đô Huế nằm bên sông Hương.

## Café crème

Le café crème est servi à Genève. Ελληνικός καφές στην Αθήνα; Ναι. किताब और पुस्तक एक ही शब्द हैं।`;

const load = (text: string) => loadDocument({ name: 'doc.md', bytes: new TextEncoder().encode(text) });

describe('NFC and NFD documents are indexed alike', () => {
  it('the same text, sections, sentences and BM25 ranks; spans stay valid', async () => {
    const nfc = await load(TEXT.normalize('NFC'));
    const nfd = await load(TEXT.normalize('NFD'));
    expect(TEXT.normalize('NFD')).not.toBe(TEXT.normalize('NFC'));
    expect(nfd.text).toBe(nfc.text);
    expect(nfd.text).toBe(nfd.text.normalize('NFC'));
    expect(nfd.title).toBe('Hà Nội và Huế'.normalize('NFC'));
    expect(nfd.sections).toEqual(nfc.sections);
    expect(nfd.language).toBe(nfc.language);
    for (const s of nfd.sections.slice(1)) expect(nfd.text.slice(s.start, s.start + s.title.length)).toBe(s.title);

    const engines = [nfc, nfd].map((d) => {
      const e = new RetrievalEngine({ embedder: null });
      e.addDocuments([{ ...d, id: 'x' }]);
      return e;
    });
    expect(engines[1]!.corpus.sentences.map((s) => s.text)).toEqual(engines[0]!.corpus.sentences.map((s) => s.text));
    for (const q of ['sông Hương', 'café Genève'.normalize('NFD'), 'Αθήνα']) {
      const [a, b] = await Promise.all(engines.map((e) => e.search(q, ['sentence'], { retriever: 'bm25', topK: 3, budgetTokens: null })));
      expect(b![0]!.blocks.map((x) => x.text)).toEqual(a![0]!.blocks.map((x) => x.text));
      expect(a![0]!.blocks.length).toBeGreaterThan(0);
    }
  });
});

describe('numbered headings are levelled by the structure words of their language', () => {
  const levels = (text: string) => documentFromText(text).sections.slice(1).map((s) => [s.title.split(' — ')[0], s.level]);

  it('Russian, Romanian and Greek laws', () => {
    expect(levels('Глава 1\n\nОбщие положения закона о мостах и дорогах.\n\nСтатья 1\n\nМост открыт для всех.\n\nСтатья 2\n\nПлата взимается с каждой телеги.')).toEqual([
      ['Глава 1', 1],
      ['Статья 1', 2],
      ['Статья 2', 2],
    ]);
    expect(levels('Capitolul I\n\nDispoziții generale privind podurile.\n\nArticolul 1\n\nPodul este deschis tuturor.')).toEqual([
      ['Capitolul I', 1],
      ['Articolul 1', 2],
    ]);
    expect(levels('Κεφάλαιο 1\n\nΓενικές διατάξεις για τις γέφυρες.\n\nΆρθρο 1\n\nΗ γέφυρα είναι ανοιχτή σε όλους.')).toEqual([
      ['Κεφάλαιο 1', 1],
      ['Άρθρο 1', 2],
    ]);
  });

  it('Chinese and Korean number the level: 第一章 / 第一条, 제1장 / 제1조', () => {
    expect(levels('第一章 总则\n\n国家的一切权力属于人民，人民行使国家权力。\n\n第一条\n\n中华人民共和国是工人阶级领导的国家。\n\n第二条\n\n国家的一切权力属于人民。')).toEqual([
      ['第一章 总则', 1],
      ['第一条', 2],
      ['第二条', 2],
    ]);
    expect(levels('제1장 총강\n\n대한민국은 민주공화국이며 모든 권력은 국민으로부터 나온다.\n\n제1조\n\n대한민국은 민주공화국이다.')).toEqual([
      ['제1장 총강', 1],
      ['제1조', 2],
    ]);
  });
});

describe('Thai wrapped lines', () => {
  it('a line wrapped between two Thai words is no space (a space is a phrase boundary); one wrapped at a space keeps it', () => {
    const wrapped = 'เมืองเคสโตรว์เติบโตขึ้นตรงจุดที่ถนนเกลือ\nสายเก่าข้ามแม่น้ำอัลเดอร์ เป็นเวลาหลายศตวรรษที่นักเดินทาง\nต้องจ่ายเงินให้คนแจวเรือพาข้ามน้ำ \nและในฤดูหนาวท่าข้ามมักปิดนานหลายสัปดาห์';
    expect(documentFromText(wrapped, 'thai.md', 'md').text).toBe(
      'เมืองเคสโตรว์เติบโตขึ้นตรงจุดที่ถนนเกลือสายเก่าข้ามแม่น้ำอัลเดอร์ เป็นเวลาหลายศตวรรษที่นักเดินทางต้องจ่ายเงินให้คนแจวเรือพาข้ามน้ำ และในฤดูหนาวท่าข้ามมักปิดนานหลายสัปดาห์',
    );
  });
});
