import type { DegRow } from '@cellcloud/contracts/artifacts';
import { LIMITS } from '@cellcloud/contracts/constants';
import type { CountMatrix } from '@cellcloud/formats/matrix';
import { EngineError } from './errors';
import { wilcoxonByGroup, type GroupTestResult } from './stats/wilcoxon';

/** DEG rows of one group from a test result, sorted by z-score (highest first, as scanpy). */
export function degRows(res: GroupTestResult, k: number, groupName: string, genes: string[]): DegRow[] {
  const order = Array.from(genes, (_, g) => g).sort((a, b) => res.z[k][b] - res.z[k][a] || a - b);
  return order.map((g) => ({
    cluster: groupName,
    gene: genes[g],
    avgExpr: res.meanGroup[k][g],
    log2fc: res.log2fc[k][g],
    pct1: res.pct1[k][g],
    pct2: res.pct2[k][g],
    zscore: res.z[k][g],
    pval: res.pval[k][g],
    padj: res.padj[k][g],
  }));
}

/** Every cluster vs the rest, all genes (docs/methods/pipeline.md#markers). `codes[c]` = cluster index of cell c. */
export function findMarkers(
  norm: CountMatrix,
  codes: Int32Array,
  labels: string[],
  genes: string[],
  onProgress?: (fraction: number) => void,
): DegRow[] {
  const res = wilcoxonByGroup(norm, codes, labels.length, onProgress);
  return labels.flatMap((name, k) => degRows(res, k, name, genes));
}

/**
 * Any group vs any group (cells listed by index into `norm`): the rows of group A tested against
 * group B only. Each group needs at least LIMITS.degMinCells cells (docs/product/validation.md#analysis-rules); a cell in both
 * groups is an error.
 */
export function compareGroups(
  norm: CountMatrix,
  genes: string[],
  groupA: ArrayLike<number>,
  groupB: ArrayLike<number>,
  names: { a: string; b: string } = { a: 'A', b: 'B' },
): DegRow[] {
  for (const [name, g] of [
    [names.a, groupA],
    [names.b, groupB],
  ] as const) {
    if (g.length < LIMITS.degMinCells) {
      throw new EngineError(
        'GROUP_TOO_SMALL',
        `Group "${name}" has ${g.length} cells; differential analysis needs at least ${LIMITS.degMinCells}.`,
        { group: name, cells: g.length, min: LIMITS.degMinCells },
      );
    }
  }
  const labels = new Int32Array(norm.nCells).fill(-1);
  for (let i = 0; i < groupA.length; i++) labels[groupA[i]] = 0;
  for (let i = 0; i < groupB.length; i++) {
    if (labels[groupB[i]] === 0) {
      throw new EngineError(
        'INVALID_PARAMS',
        `Cell ${groupB[i]} is in both groups; the two groups must not overlap.`,
        {
          cell: groupB[i],
        },
      );
    }
    labels[groupB[i]] = 1;
  }
  return degRows(wilcoxonByGroup(norm, labels, 2), 0, names.a, genes);
}

/** The docs/product/validation.md#deg-display-filter display filter: Log2FC ≥ 0.25, adjusted p ≤ 0.05, Pct1 or Pct2 ≥ 0.1. */
export function filterDegTable(rows: DegRow[]): DegRow[] {
  const f = LIMITS.degFilter;
  return rows.filter((r) => r.log2fc >= f.log2fc && r.padj <= f.padj && (r.pct1 >= f.pct || r.pct2 >= f.pct));
}
