import { describe, expect, it } from 'vitest';
import { dispersionHvg, dispersionHvgFromSums } from '../../src/stats/dispersion-hvg';
import { fromDenseColumns, synthClusters } from './fixtures';

describe('dispersionHvg', () => {
  it('selects the same genes from linear-scale sums as from the log1p matrix (Scrublet skips the round trip)', () => {
    const { columns } = synthClusters({
      nCells: 600,
      nGenes: 500,
      nTypes: 4,
      markersPerType: 20,
      fold: 8,
      meanLib: 1500,
      seed: 5,
    });
    const counts = fromDenseColumns(columns, 500);
    const sum = new Float64Array(500);
    const sumSq = new Float64Array(500);
    const data = Float32Array.from(counts.data, (x, t) => {
      sum[counts.indices[t]] += x;
      sumSq[counts.indices[t]] += x * x;
      return Math.log1p(x);
    });
    const fromLog = dispersionHvg({ ...counts, data }, 100);
    const fromSums = dispersionHvgFromSums(sum, sumSq, counts.nCells, 100);
    expect(fromSums.selected.reduce((a, b) => a + b, 0)).toBe(100);
    expect(Array.from(fromSums.selected)).toEqual(Array.from(fromLog.selected));
    for (let g = 0; g < 500; g++) {
      if (Number.isFinite(fromLog.dispersionsNorm[g]))
        expect(fromSums.dispersionsNorm[g]).toBeCloseTo(fromLog.dispersionsNorm[g], 4);
      expect(fromSums.means[g]).toBeCloseTo(fromLog.means[g], 5);
    }
  });
});
