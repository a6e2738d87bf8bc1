import { describe, expect, it } from 'vitest';
import type { DegRow } from '@cellcloud/contracts/artifacts';
import { chiSquarePValue } from '../../src/features/explore/stats/chiSquare';
import { roeTable } from '../../src/features/explore/stats/roe';
import { filterDegRows, passesDegFilter, sortDegRows } from '../../src/features/explore/stats/degFilter';
import {
  columnProportions,
  groupProportionBoxes,
  sampleGroups,
} from '../../src/features/explore/stats/composition';
import { findQcColumns, parseQcSummary } from '../../src/features/explore/tabs/qcSummary';
import {
  boxStats,
  crossTab,
  meanAndPct,
  splitByGroup,
  violinDensity,
} from '../../src/features/explore/stats/groupStats';

describe('chi-square p-value', () => {
  it('matches the textbook critical values', () => {
    expect(chiSquarePValue(3.841459, 1)).toBeCloseTo(0.05, 5);
    expect(chiSquarePValue(11.0705, 5)).toBeCloseTo(0.05, 4);
    expect(chiSquarePValue(0.0157908, 1)).toBeCloseTo(0.9, 4);
    expect(chiSquarePValue(0, 3)).toBe(1);
  });
});

describe('Ro/e', () => {
  it('computes observed/expected and the chi-square test of a 2×2 table', () => {
    const r = roeTable([
      [10, 20],
      [30, 40],
    ]);
    expect(r.expected[0]).toEqual([12, 18]);
    expect(r.roe[0]![0]).toBeCloseTo(10 / 12, 10);
    expect(r.chiSquare).toBeCloseTo(0.79365, 4);
    expect(r.df).toBe(1);
    expect(r.pValue).toBeCloseTo(0.373, 3);
    expect(r.significant).toBe(false); // docs/product/errors.md: reported as a failure
  });
  it('is significant for a clearly skewed composition', () => {
    const r = roeTable([
      [100, 5],
      [5, 100],
      [50, 50],
    ]);
    expect(r.pValue).toBeLessThan(1e-10);
    expect(r.significant).toBe(true);
    expect(r.roe[0]![0]).toBeGreaterThan(1.5);
  });
});

const row = (o: Partial<DegRow>): DegRow => ({
  cluster: '0',
  gene: 'G',
  avgExpr: 1,
  log2fc: 1,
  pct1: 0.5,
  pct2: 0.2,
  zscore: 3,
  pval: 1e-5,
  padj: 1e-3,
  ...o,
});

describe('DEG filter (docs/product/validation.md#deg-display-filter)', () => {
  it('applies log2FC ≥ 0.25, padj ≤ 0.05, pct1 or pct2 ≥ 0.1 with inclusive bounds', () => {
    expect(passesDegFilter(row({ log2fc: 0.25, padj: 0.05 }))).toBe(true);
    expect(passesDegFilter(row({ log2fc: 0.2499 }))).toBe(false);
    expect(passesDegFilter(row({ padj: 0.0501 }))).toBe(false);
    expect(passesDegFilter(row({ pct1: 0.05, pct2: 0.1 }))).toBe(true);
    expect(passesDegFilter(row({ pct1: 0.05, pct2: 0.09 }))).toBe(false);
  });
  it('searches, restricts to a cluster and sorts', () => {
    const rows = [
      row({ gene: 'CD3D', cluster: '1', log2fc: 2 }),
      row({ gene: 'CD3E', log2fc: 3 }),
      row({ gene: 'MS4A1', log2fc: 0.1 }),
    ];
    expect(
      filterDegRows(rows, { applySpecFilter: true, search: 'cd3', cluster: null }).map((r) => r.gene),
    ).toEqual(['CD3D', 'CD3E']);
    expect(filterDegRows(rows, { applySpecFilter: false, search: '', cluster: '0' })).toHaveLength(2);
    expect(sortDegRows(rows, 'log2fc', 'desc').map((r) => r.gene)).toEqual(['CD3E', 'CD3D', 'MS4A1']);
  });
});

describe('group statistics', () => {
  const values = Float32Array.from([1, 2, 3, 4, 0, 0, 5, 10]);
  const codes = Uint32Array.from([0, 0, 0, 0, 1, 1, 1, 1]);
  it('splits, summarises and counts by group', () => {
    const groups = splitByGroup(values, codes, 2);
    expect(Array.from(groups[1]!)).toEqual([0, 0, 5, 10]);
    expect(boxStats(groups[0]!)).toMatchObject({ min: 1, median: 2.5, max: 4, n: 4 });
    const mp = meanAndPct(values, codes, 2);
    expect(mp.mean).toEqual([2.5, 3.75]);
    expect(mp.pct).toEqual([1, 0.5]);
    expect(crossTab(codes, 2, Uint32Array.from([0, 1, 0, 1, 0, 0, 0, 1]), 2)).toEqual([
      [2, 2],
      [3, 1],
    ]);
  });
  it('masks cells and builds a normalised violin density', () => {
    const groups = splitByGroup(values, codes, 2, Uint8Array.from([1, 0, 1, 0, 1, 1, 1, 1]));
    expect(Array.from(groups[0]!)).toEqual([1, 3]);
    const d = violinDensity(Float64Array.from([0, 0, 0, 1]), [0, 0.5, 1]);
    expect(Math.max(...d)).toBe(1);
    expect(d[0]).toBeGreaterThan(d[2]!);
  });
});

describe('composition', () => {
  it('turns counts into per-sample proportions', () => {
    expect(
      columnProportions([
        [1, 0],
        [3, 5],
      ]),
    ).toEqual([
      [0.25, 0],
      [0.75, 1],
    ]);
  });
  it('assigns each sample its majority group', () => {
    expect(sampleGroups([0, 0, 1, 1, 1], 2, [1, 1, 0, 0, 1], 2)).toEqual([1, 0]);
  });
  it('needs at least 3 samples per group for box plots (docs/product/validation.md#analysis-rules)', () => {
    const props = [[0.1, 0.2, 0.3, 0.4, 0.5, 0.6]];
    expect(groupProportionBoxes(props, [0, 0, 0, 1, 1, 1], ['ctrl', 'stim'])).toEqual({
      ok: true,
      boxes: [
        [
          [0.1, 0.2, 0.3],
          [0.4, 0.5, 0.6],
        ],
      ],
    });
    expect(groupProportionBoxes(props, [0, 0, 0, 0, 1, 1], ['ctrl', 'stim'])).toEqual({
      ok: false,
      groupsTooSmall: ['stim'],
    });
  });
});

describe('qc.json summary', () => {
  it('reads the engine summary: samples, thresholds, per-sample doublet rows, QC columns', () => {
    const q = parseQcSummary({
      samples: [
        {
          sample: '10x',
          cellsBefore: 2638,
          cellsAfter: 2487,
          thresholds: { minGenes: 200, maxMito: 5 },
          failed: { genes: 53 },
        },
      ],
      doublets: [{ sample: '10x', removed: 23 }],
    });
    expect(q.samples[0]).toMatchObject({
      sample: '10x',
      cellsBefore: 2638,
      cellsAfter: 2487,
      thresholds: { minGenes: 200, maxMito: 5 },
    });
    expect(q.doublets).toEqual([{ sample: '10x', removed: 23 }]);
    expect(q.ambient).toEqual([]);
    expect(
      findQcColumns(['n_genes_by_counts', 'total_counts', 'pct_counts_mito', 'pct_counts_ribo', 'cluster']),
    ).toEqual([
      { id: 'genes', key: 'n_genes_by_counts' },
      { id: 'umis', key: 'total_counts' },
      { id: 'mito', key: 'pct_counts_mito' },
      { id: 'ribo', key: 'pct_counts_ribo' },
    ]);
  });
});
