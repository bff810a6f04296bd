import { describe, expect, it } from 'vitest';
import { budgetOverride } from './tab-memory';

describe('the #budget= debug hash', () => {
  it('sets a budget in MB or GB, and nothing else does', () => {
    expect(budgetOverride('#budget=2.5GB')).toBe(2.5e9);
    expect(budgetOverride('#budget=300mb')).toBe(300e6);
    expect(budgetOverride('#budget=0GB')).toBeNull();
    expect(budgetOverride('#budget=300')).toBeNull();
    expect(budgetOverride('#faults')).toBeNull();
    expect(budgetOverride('')).toBeNull();
  });
});
