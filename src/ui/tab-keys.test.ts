import { describe, expect, it } from 'vitest';
import { tabAfterKey } from './tab-keys';

describe('tab keys', () => {
  it('arrows move to the neighbour and wrap around; Home and End go to the ends', () => {
    expect(tabAfterKey('ArrowRight', 0, 3)).toBe(1);
    expect(tabAfterKey('ArrowRight', 2, 3)).toBe(0);
    expect(tabAfterKey('ArrowLeft', 0, 3)).toBe(2);
    expect(tabAfterKey('ArrowLeft', 2, 3)).toBe(1);
    expect(tabAfterKey('Home', 2, 3)).toBe(0);
    expect(tabAfterKey('End', 0, 3)).toBe(2);
  });

  it('other keys, and an empty list, move nothing', () => {
    expect(tabAfterKey('Enter', 1, 3)).toBeNull();
    expect(tabAfterKey('ArrowDown', 1, 3)).toBeNull();
    expect(tabAfterKey('End', 0, 0)).toBeNull();
  });
});
