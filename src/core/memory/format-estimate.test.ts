import { describe, expect, it } from 'vitest';
import { checkLoad, documentNeed, tabBudget, type CorpusCounts } from './load-estimate';

const EMPTY: CorpusCounts = { sentences: 0, textChars: 0, vectors: {}, dims: 0 };

describe('documentNeed for office files, sheets, e-books and images', () => {
  it('uses each format\'s characters per byte, and a row per sentence for sheets', () => {
    const counts = (name: string) => documentNeed({ name, size: 1_000_000 }, 0).counts;
    expect(counts('report.docx')).toMatchObject({ textChars: 3_000_000, sentences: 30_000 });
    expect(counts('book.epub')).toMatchObject({ textChars: 3_000_000, sentences: 30_000 });
    expect(counts('data.xlsx')).toMatchObject({ textChars: 5_000_000, sentences: 62_500 });
    expect(counts('data.ods')).toMatchObject({ textChars: 5_000_000, sentences: 62_500 });
    expect(counts('data.csv')).toMatchObject({ textChars: 2_500_000, sentences: 31_250 });
    expect(counts('deck.pptx')).toMatchObject({ textChars: 1_000_000, sentences: 10_000 });
    expect(counts('scan.PNG')).toMatchObject({ textChars: 50_000, sentences: 500 });
  });

  it('refuses a sheet of a million rows before loading it, and lets a sheet of 10,000 rows in', () => {
    // 20,000 rows of 5 columns measured 701,711 bytes as .xlsx (office-fixtures.ts): a million rows ≈ 35 MB.
    const budget = tabBudget({ deviceMemoryGiB: 4 });
    const million = checkLoad(EMPTY, documentNeed({ name: 'census.xlsx', size: 35_085_550 }, 384), budget);
    expect(million).toMatchObject({ fits: false, limit: 'budget' });
    expect(million.needBytes).toBeGreaterThan(budget.bytes);
    expect(checkLoad(EMPTY, documentNeed({ name: 'census.xlsx', size: 350_856 }, 384), budget).fits).toBe(true);
  });
});
