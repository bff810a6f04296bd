import { describe, expect, it } from 'vitest';
import { storageText } from './storage-text';

describe('what the banner says about storage', () => {
  it('kept, or off with the reason and what could not be stored', () => {
    expect(storageText({ on: true })).toBe('Your corpus is kept in this browser.');
    expect(storageText({ on: false, reason: 'the browser storage quota is full; the vectors of a.md could not be stored' })).toBe(
      'Persistence is off (the browser storage quota is full; the vectors of a.md could not be stored): work is kept in memory only.',
    );
  });

  it('after a reload: what came back, what is made again, and what this tab embedded since', () => {
    expect(storageText({ on: true, restored: { vectors: 8826, semanticDocs: 8, toEmbed: 120, toCut: 1 } }, { units: 37, semanticDocs: 1 })).toBe(
      'Your corpus is kept in this browser. Restored: 8,826 vectors and the semantic chunks of 8 documents; left to make: 120 units, semantic chunks of 1 document. Embedded since: 37 units; semantic chunks cut for 1 document.',
    );
    expect(storageText({ on: true, restored: { vectors: 0, semanticDocs: 0, toEmbed: 0, toCut: 0 } })).toBe('Your corpus is kept in this browser. Restored: 0 vectors; nothing to embed again.');
  });

  it('names the documents whose stored text could not be read back, and asks for their files again', () => {
    expect(storageText({ on: true, lost: ['Harbour notes'] })).toBe(
      "Your corpus is kept in this browser. The stored text of 'Harbour notes' could not be read back from this browser's storage: it was left out; drop its file again.",
    );
    expect(storageText({ on: true, restored: { vectors: 3, semanticDocs: 0, toEmbed: 0, toCut: 0 }, lost: ['a', 'b', 'c', 'd', 'e'] })).toBe(
      "Your corpus is kept in this browser. Restored: 3 vectors; nothing to embed again. The stored text of 'a', 'b', 'c' and 2 more could not be read back from this browser's storage: they were left out; drop their files again.",
    );
  });
});
