import { describe, expect, it } from 'vitest';
import { fullSqDists, sqDist32 } from '../../src/methods/knn-scan';
import { Random } from '../../src/methods/random';

describe('fullSqDists', () => {
  it('gives sqDist32 bit for bit, and the same points beyond a bound', () => {
    const rng = new Random(5);
    for (const d of [1, 3, 4, 30, 31]) {
      const n = 23;
      const a = Float32Array.from({ length: n * d }, () => rng.normal() * 10);
      const out = new Float64Array(n);
      for (const bound of [Infinity, 50 * d, 200 * d]) {
        fullSqDists(a, 2 * d, 1, n, d, bound, out);
        for (let p = 1; p < n; p++) {
          const one = sqDist32(a, 2 * d, a, p * d, d, bound);
          expect(out[p - 1] > bound).toBe(one > bound);
          if (one <= bound) expect(Object.is(out[p - 1], one)).toBe(true);
        }
      }
    }
  });
});
