import { LIMITS } from '@cellcloud/contracts/constants';
import type { GroupSpec } from '@cellcloud/contracts/tasks/define';
import { wilcoxonByGroup } from '@cellcloud/engine/stats/wilcoxon';
import { TaskError } from '@cellcloud/engine/tasks/kit';
import { describeGroup, selectCells } from '@cellcloud/engine/tasks/kit';
import type { ResultHandle, TableValue, TaskTable } from '@cellcloud/engine/tasks/kit';
import { DEG_GROUP_COLUMNS } from '@cellcloud/contracts/tasks/enrichment-common';

/** One DEG row of a one-vs-one comparison (DEG columns of docs/product/entities.md + `mean`). */
export interface DegGroupRow {
  cluster: string;
  gene: string;
  /** Dataset gene index. */
  g: number;
  avgExpr: number;
  log2fc: number;
  pct1: number;
  pct2: number;
  zscore: number;
  pval: number;
  padj: number;
  /** log2(mean of expm1(normalized) in the group + 1) (docs/methods/deg-groups.md). */
  mean: number;
}

export interface Comparison {
  labels: [string, string];
  cells: [Uint32Array, Uint32Array];
  droppedOverlap: number;
  /** rows[0]: group 1 vs group 2; rows[1]: group 2 vs group 1; each sorted by zscore (highest first). */
  rows: [DegGroupRow[], DegGroupRow[]];
  /** Genes detected in at least one cell of either group (the ORA universe). */
  tested: Int32Array;
}

/**
 * Cells of the two groups (docs/methods/deg-groups.md: a cell matches a group when all its conditions hold;
 * cells in neither are dropped; cells in both are refused or, with overlap = 'drop', removed from
 * both), each with at least LIMITS.degMinCells cells (docs/product/validation.md).
 */
export function selectTwoGroups(
  result: ResultHandle,
  group1: GroupSpec,
  group2: GroupSpec,
  overlap: 'refuse' | 'drop',
): { cells: [Uint32Array, Uint32Array]; labels: [string, string]; droppedOverlap: number } {
  const labels: [string, string] = [describeGroup(group1), describeGroup(group2)];
  let a = selectCells(result, group1);
  let b = selectCells(result, group2);
  const inA = new Uint8Array(result.nCells);
  a.forEach((c) => (inA[c] = 1));
  let shared = 0;
  b.forEach((c) => (shared += inA[c]!));
  if (shared > 0) {
    if (overlap === 'refuse') {
      throw new TaskError('enrichment.overlap', `${shared} cells match both groups.`, { cells: shared });
    }
    const inB = new Uint8Array(result.nCells);
    b.forEach((c) => (inB[c] = 1));
    a = a.filter((c) => !inB[c]);
    b = b.filter((c) => !inA[c]);
  }
  for (const [i, g] of [a, b].entries()) {
    const name = labels[i]!;
    if (g.length === 0)
      throw new TaskError('common.emptyGroup', `No cell matches group ${name}.`, { group: name });
    if (g.length < LIMITS.degMinCells) {
      throw new TaskError('common.tooFewCells', `Group "${name}" has ${g.length} cells.`, {
        group: name,
        cells: g.length,
        min: LIMITS.degMinCells,
      });
    }
  }
  return { cells: [a, b], labels, droppedOverlap: shared };
}

/**
 * Wilcoxon rank-sum (tie-corrected, normal approximation) + BH on the normalized layer, both
 * directions, as scanpy's rank_genes_groups(method='wilcoxon', tie_correct=True, pts=True) on the
 * two remaining groups (engine stats/wilcoxon: same code as the cluster markers).
 */
export function compareTwoGroups(
  result: ResultHandle,
  group1: GroupSpec,
  group2: GroupSpec,
  overlap: 'refuse' | 'drop',
  onProgress?: (fraction: number) => void,
): Comparison {
  const sel = selectTwoGroups(result, group1, group2, overlap);
  const norm = result.normalized();
  const codes = new Int32Array(result.nCells).fill(-1);
  sel.cells[0].forEach((c) => (codes[c] = 0));
  sel.cells[1].forEach((c) => (codes[c] = 1));
  const res = wilcoxonByGroup(norm, codes, 2, onProgress);
  // mean of expm1(normalized) per group (linear scale)
  const lin = [new Float64Array(result.nGenes), new Float64Array(result.nGenes)];
  for (let c = 0; c < result.nCells; c++) {
    const k = codes[c]!;
    if (k < 0) continue;
    const row = lin[k]!;
    for (let j = norm.indptr[c]!; j < norm.indptr[c + 1]!; j++)
      row[norm.indices[j]!]! += Math.expm1(norm.data[j]!);
  }
  const sizes = [sel.cells[0].length, sel.cells[1].length];
  const symbols = result.genes.symbols;
  const fin = (x: number) => (Number.isFinite(x) ? x : 0); // docs/methods/deg-groups.md: missing values filled with 0
  const rows = [0, 1].map((k) => {
    const out: DegGroupRow[] = [];
    for (let g = 0; g < result.nGenes; g++) {
      out.push({
        cluster: sel.labels[k]!,
        gene: symbols[g]!,
        g,
        avgExpr: fin(res.meanGroup[k]![g]!),
        log2fc: fin(res.log2fc[k]![g]!),
        pct1: fin(res.pct1[k]![g]!),
        pct2: fin(res.pct2[k]![g]!),
        zscore: fin(res.z[k]![g]!),
        pval: Number.isFinite(res.pval[k]![g]!) ? res.pval[k]![g]! : 1,
        padj: Number.isFinite(res.padj[k]![g]!) ? res.padj[k]![g]! : 1,
        mean: Math.log2(lin[k]![g]! / sizes[k]! + 1),
      });
    }
    out.sort((x, y) => y.zscore - x.zscore || x.g - y.g);
    return out;
  }) as [DegGroupRow[], DegGroupRow[]];
  const tested: number[] = [];
  const any = new Uint8Array(result.nGenes);
  for (const r of rows[0]) if (r.pct1 > 0 || r.pct2 > 0) any[r.g] = 1;
  any.forEach((v, g) => v && tested.push(g));
  return {
    labels: sel.labels,
    cells: sel.cells,
    droppedOverlap: sel.droppedOverlap,
    rows,
    tested: Int32Array.from(tested),
  };
}

export function degTable(rows: DegGroupRow[]): TaskTable {
  return {
    columns: [...DEG_GROUP_COLUMNS],
    rows: rows.map((r) => DEG_GROUP_COLUMNS.map((c) => r[c] as TableValue)),
  };
}

/** Rows back from a deg-groups table (enrich / gsea reading their source task). */
export function degRowsFromTable(t: TaskTable, geneIndex: (name: string) => number): DegGroupRow[] {
  const col = (name: string) => {
    const i = t.columns.indexOf(name);
    if (i < 0) throw new Error(`deg-groups table has no column ${name}`);
    return i;
  };
  const idx = Object.fromEntries(DEG_GROUP_COLUMNS.map((c) => [c, col(c)])) as Record<
    (typeof DEG_GROUP_COLUMNS)[number],
    number
  >;
  const num = (v: TableValue) => (typeof v === 'number' ? v : Number(v));
  return t.rows.map((r) => ({
    cluster: String(r[idx.cluster]),
    gene: String(r[idx.gene]),
    g: geneIndex(String(r[idx.gene])),
    avgExpr: num(r[idx.avgExpr]!),
    log2fc: num(r[idx.log2fc]!),
    pct1: num(r[idx.pct1]!),
    pct2: num(r[idx.pct2]!),
    zscore: num(r[idx.zscore]!),
    pval: num(r[idx.pval]!),
    padj: num(r[idx.padj]!),
    mean: num(r[idx.mean]!),
  }));
}

/** The display filter (docs/product/validation.md), defined with the DEG table's columns. */
export { passesDegDisplayFilter as passesDisplayFilter } from '@cellcloud/contracts/tasks/enrichment-common';
