import type { PostingTable } from './posting-table';

/** A unit-major copy of some units' postings: unit from+j's rows are [offsets[j], offsets[j + 1]) of term and tf (terms ascending). */
export interface UnitPostings {
  from: number;
  offsets: Int32Array;
  term: Int32Array;
  tf: Uint32Array;
}

/**
 * A compacted BM25 table's postings by unit, a window [from, to) at a time (LexicalIndex.addRuns
 * sums runs of units from them). A term's units ascend in the table, so a cursor per term, left at
 * the window's first unit, walks them: windows asked in ascending order (they may overlap: the next
 * starts at the run that did not fit) read each posting about twice over all of them, where each
 * window read the whole table before. A window's term and tf are views into buffers the next
 * window reuses.
 */
export function unitPostings(starts: Int32Array, table: PostingTable): (from: number, to: number) => UnitPostings {
  const terms = starts.length - 1;
  const cursor = starts.slice(0, terms);
  let last = 0;
  let termBuffer = new Int32Array(0);
  let tfBuffer = new Uint32Array(0);
  return (from, to) => {
    // A window before the last one: the cursors start over.
    if (from < last) cursor.set(starts.subarray(0, terms));
    last = from;
    const offsets = new Int32Array(to - from + 1);
    for (let t = 0; t < terms; t++) {
      const end = starts[t + 1]!;
      let i = cursor[t]!;
      while (i < end && table.unit(i) < from) i++;
      cursor[t] = i;
      for (; i < end; i++) {
        const u = table.unit(i);
        if (u >= to) break;
        offsets[u - from + 1]!++;
      }
    }
    for (let j = 0; j < to - from; j++) offsets[j + 1]! += offsets[j]!;
    const size = offsets[to - from]!;
    if (termBuffer.length < size) {
      termBuffer = new Int32Array(size);
      tfBuffer = new Uint32Array(size);
    }
    const term = termBuffer.subarray(0, size);
    const tf = tfBuffer.subarray(0, size);
    const fill = offsets.slice(0, to - from);
    for (let t = 0; t < terms; t++) {
      const end = starts[t + 1]!;
      let i = cursor[t]!;
      for (; i < end; i++) {
        const u = table.unit(i);
        if (u >= to) break;
        const at = fill[u - from]!++;
        term[at] = t;
        tf[at] = table.tf(i);
      }
    }
    return { from, offsets, term, tf };
  };
}
