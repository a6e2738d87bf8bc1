import type { ResultHandle } from '@cellcloud/engine/tasks/kit';

/**
 * The GSVA input matrix over genes with a human name (first dataset gene per name), genes ×
 * columns row-major:
 *   pseudobulk: per group, log1p(mean of expm1(normalized)) (average expression of the group on the
 *               normalized scale, as Seurat's AverageExpression then log1p);
 *   cells:      the normalized values of each cell.
 */
export function gsvaMatrix(
  result: ResultHandle,
  human: readonly string[],
  columns: { name: string; cells: ArrayLike<number> }[],
  mode: 'pseudobulk' | 'cells',
): { x: Float64Array; genes: number[]; names: string[]; nCols: number } {
  const seen = new Set<string>();
  const genes: number[] = [];
  human.forEach((h, g) => {
    if (h && !seen.has(h)) {
      seen.add(h);
      genes.push(g);
    }
  });
  const row = new Int32Array(result.nGenes).fill(-1);
  genes.forEach((g, i) => (row[g] = i));
  const norm = result.normalized();
  const nCols = columns.length;
  const x = new Float64Array(genes.length * nCols);
  columns.forEach((col, j) => {
    for (let i = 0; i < col.cells.length; i++) {
      const c = col.cells[i]!;
      for (let k = norm.indptr[c]!; k < norm.indptr[c + 1]!; k++) {
        const r = row[norm.indices[k]!]!;
        if (r >= 0) x[r * nCols + j]! += mode === 'pseudobulk' ? Math.expm1(norm.data[k]!) : norm.data[k]!;
      }
    }
    if (mode === 'pseudobulk') {
      const n = col.cells.length;
      for (let r = 0; r < genes.length; r++) x[r * nCols + j] = Math.log1p(x[r * nCols + j]! / n);
    }
  });
  return { x, genes, names: genes.map((g) => human[g]!), nCols };
}
