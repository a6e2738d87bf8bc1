import { describe, expect, it } from 'vitest';
import { analysisParams, METHODS_PRESET } from '@cellcloud/contracts/analysis-params';
import { modeLargest, pickMitoCandidate, recommendThresholds } from '../src/steps/thresholds';
import type { QcMetrics } from '../src/steps/qc-metrics';
import { percentile } from '../src/stats/quantile';
import { choosePcCount } from '../src/stats/n-pcs';

// the recommended (docs/methods/pipeline.md#qc-filters) thresholds are the METHODS preset's, no longer the defaults
const defaults = analysisParams.parse(METHODS_PRESET);

function qcOf(rows: { genes: number; umi: number; mito: number }[]): QcMetrics {
  return {
    nGenes: Float64Array.from(rows, (r) => r.genes),
    nUmi: Float64Array.from(rows, (r) => r.umi),
    pctMito: Float64Array.from(rows, (r) => r.mito),
    pctRibo: new Float64Array(rows.length),
  };
}

describe('recommended cell-filter thresholds (docs/product/limits.md#cell-filtering-defaults, docs/methods/pipeline.md#qc-filters)', () => {
  it('percentile matches numpy linear interpolation', () => {
    expect(percentile([1, 2, 3, 4], 50)).toBe(2.5);
    expect(percentile([10, 20, 30, 40, 50], 98)).toBeCloseTo(49.2, 12);
  });

  it('derives max genes/UMIs as int(P98)+1 after the minimum filters, per sample', () => {
    // Sample 0: 100 cells with genes 201..300 plus 5 low-quality cells (< 200 genes) that must
    // not influence the percentile. Sample 1: 50 cells with genes 1001..1050.
    const rows: { genes: number; umi: number; mito: number }[] = [];
    for (let i = 1; i <= 100; i++) rows.push({ genes: 200 + i, umi: 1000 + 10 * i, mito: 1 });
    for (let i = 0; i < 5; i++) rows.push({ genes: 50, umi: 100000, mito: 1 });
    for (let i = 1; i <= 50; i++) rows.push({ genes: 1000 + i, umi: 5000 + i, mito: 1 });
    const s0 = Array.from({ length: 105 }, (_, i) => i);
    const s1 = Array.from({ length: 50 }, (_, i) => 105 + i);
    const [t0, t1] = recommendThresholds(qcOf(rows), [s0, s1], defaults);
    const p98 = (xs: number[]) => Math.floor(percentile(xs, 98)) + 1;
    expect(t0.minGenes).toBe(200);
    expect(t0.minUmi).toBe(0);
    expect(t0.maxGenes).toBe(p98(rows.slice(0, 100).map((r) => r.genes)));
    expect(t0.maxGenes).toBe(298 + 1); // P98 of 201..300 = 201 + 0.98·99 = 298.02
    expect(t0.maxUmi).toBe(p98(rows.slice(0, 100).map((r) => r.umi)));
    expect(t1.maxGenes).toBe(p98(rows.slice(105).map((r) => r.genes)));
  });

  it('uses the manual ranges when the state is manual', () => {
    const params = analysisParams.parse({
      expressedGeneRange: { state: 'manual', range: [300, 4000] },
      expressedUmiRange: { state: 'manual', range: [500, 20000] },
      mitochondrialContent: { state: 'manual', max: 12 },
    });
    const [t] = recommendThresholds(qcOf([{ genes: 500, umi: 1000, mito: 3 }]), [[0]], params);
    expect(t).toMatchObject({ minGenes: 300, maxGenes: 4000, minUmi: 500, maxUmi: 20000, maxMito: 12 });
  });

  it('picks the mito candidate closest to removing 5% of cells; ties go to the smaller', () => {
    // 100 cells: 14 above 5% (|.14−.05| = .09), 6 above 10% (.01), none above 15% (.05) → 10
    const mito = [...Array(86).fill(1), ...Array(8).fill(7), ...Array(6).fill(12)];
    expect(pickMitoCandidate(mito)).toBe(10);
    // Exact tie: 0% above 5 and 10% above … → candidates with equal distance keep the first.
    expect(pickMitoCandidate(Array(100).fill(0))).toBe(5);
  });

  it('takes the mode of the per-sample picks across samples, the largest on a tie', () => {
    expect(modeLargest([5, 10, 10, 5])).toBe(10);
    expect(modeLargest([5, 5, 20])).toBe(5);
    expect(modeLargest([30, 5, 15])).toBe(30);
  });

  it('applies the cross-sample mito mode to every sample', () => {
    const low = Array.from({ length: 100 }, (_, i) => ({ genes: 500, umi: 2000, mito: i < 5 ? 7 : 1 })); // pick 5
    const high = Array.from({ length: 100 }, (_, i) => ({ genes: 500, umi: 2000, mito: i < 5 ? 25 : 12 })); // 5% above 15 → pick 15
    const qc = qcOf([...low, ...high, ...high]);
    const idx = (o: number) => Array.from({ length: 100 }, (_, i) => o + i);
    const t = recommendThresholds(qc, [idx(0), idx(100), idx(200)], defaults);
    expect(t.map((x) => x.mitoPick)).toEqual([5, 15, 15]);
    expect(t.every((x) => x.maxMito === 15)).toBe(true);
  });
});

describe('PC count guidance (docs/methods/pipeline.md#number-of-pcs)', () => {
  it('uses the last big drop when 90% is not reached', () => {
    const ratios = [0.2, 0.1, 0.05, 0.03, 0.0295, 0.0294, 0.0293];
    // drops (pp): 10, 5, 2, 0.05, 0.01, 0.01 → last > 0.1 is between PC3 and PC4 → k = 4
    expect(choosePcCount(ratios)).toBe(4);
  });

  it('stops at 90% cumulative when that comes first', () => {
    const ratios = [0.5, 0.3, 0.07, 0.04, 0.03, 0.02, 0.01];
    // cumulative 0.5, 0.8, 0.87, 0.91 (PC4 share 4% < 5%) → i = 4; last drop > 0.1pp at PC6→7 → k = 7
    expect(choosePcCount(ratios)).toBe(4);
  });
});
