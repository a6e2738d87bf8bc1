import { describe, expect, it } from 'vitest';
import { spearman } from '../../src/_shared/engine/trajectory/stats';

describe('spearman (trajectory gene ordering; ranks from the engine)', () => {
  it('gives Spearman correlation of ranks with ties', () => {
    // Pearson of ranks (1, 2.5, 2.5, 4) and (1, 2, 3.5, 3.5): 3.75 / 4.5 (R: cor(…, method = "spearman"))
    expect(spearman([1, 2, 2, 3], [10, 20, 30, 30])).toBeCloseTo(3.75 / 4.5, 12);
    expect(spearman([1, 2, 3, 4], [8, 6, 4, 2])).toBeCloseTo(-1, 12);
  });
});
