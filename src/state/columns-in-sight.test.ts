import { afterEach, describe, expect, it } from 'vitest';
import { firstColumns, setColumnsInSight } from './columns-in-sight';

describe('the columns a search asks for first', () => {
  afterEach(() => setColumnsInSight(null));

  it('are those of the question in sight, in the order asked, when some others are not', () => {
    setColumnsInSight(['window', 'sentence', 'automerge']);
    expect(firstColumns(['sentence', 'window', 'naive', 'hybrid'])).toEqual(['sentence', 'window']);
  });

  it('are none (one answer) with no strip, with every column in sight, or with none of them', () => {
    expect(firstColumns(['sentence', 'window'])).toBeUndefined();
    setColumnsInSight(['sentence', 'window']);
    expect(firstColumns(['sentence', 'window'])).toBeUndefined();
    expect(firstColumns(['naive', 'hybrid'])).toBeUndefined();
  });
});
