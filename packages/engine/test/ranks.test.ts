import { describe, expect, it } from 'vitest';
import { averageRanks } from '../src/stats/ranks';

describe('averageRanks (shared by trajectory Spearman and limma-voom TMM)', () => {
  it("matches R's rank(ties.method = 'average')", () => {
    // R: rank(c(3, 1, 4, 1, 5, 9, 2, 6)) → 4.0 1.5 5.0 1.5 6.0 8.0 3.0 7.0
    expect(Array.from(averageRanks([3, 1, 4, 1, 5, 9, 2, 6]))).toEqual([4, 1.5, 5, 1.5, 6, 8, 3, 7]);
    expect(Array.from(averageRanks(new Float64Array([2, 2, 2])))).toEqual([2, 2, 2]);
    expect(averageRanks([]).length).toBe(0);
  });
});
