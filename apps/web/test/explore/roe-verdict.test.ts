import { describe, expect, it } from 'vitest';
import { roeTable, roeVerdict } from '../../src/features/explore/stats/roe';

describe('Ro/e verdict of the Composition tab (issue 31: a one-sample dataset said "Ro/e failed")', () => {
  it('one sample (one column with cells) is not a failure: Ro/e needs two or more', () => {
    const r = roeTable([[120], [40], [7]]);
    expect(r.groups).toBe(1);
    expect(roeVerdict(r)).toBe('single');
    // an empty second sample does not count
    expect(
      roeVerdict(
        roeTable([
          [120, 0],
          [40, 0],
        ]),
      ),
    ).toBe('single');
  });
  it('two samples: the chi-square test decides', () => {
    expect(
      roeVerdict(
        roeTable([
          [100, 10],
          [10, 100],
        ]),
      ),
    ).toBe('significant');
    expect(
      roeVerdict(
        roeTable([
          [50, 50],
          [50, 50],
        ]),
      ),
    ).toBe('chance');
  });
});
