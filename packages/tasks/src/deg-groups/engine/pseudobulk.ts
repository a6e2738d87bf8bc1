import { categoricalLevel, TaskError } from '@cellcloud/engine/tasks/kit';
import type { ResultHandle, TaskTable } from '@cellcloud/engine/tasks/kit';
import { limmaVoom } from './limma-voom';

/** Columns of tables/pseudobulk.csv (limma topTable names). */
export const PSEUDOBULK_COLUMNS = ['gene', 'logFC', 'AveExpr', 't', 'P.Value', 'adj.P.Val'] as const;

/**
 * Pseudobulk test of a two-group comparison: raw counts summed per sample (`sampleKey` level) ×
 * group, then limma-voom with TMM (limma-voom.ts). Each group needs ≥ 2 samples. A sample with
 * cells in both groups gives one column per group (unpaired design, documented).
 */
export function pseudobulkTest(result: ResultHandle, cells: [Uint32Array, Uint32Array], sampleKey: string) {
  const samples = categoricalLevel(result, sampleKey);
  const cols: { sample: string; group: number; cells: number[] }[] = [];
  const key = new Map<string, number>();
  cells.forEach((list, k) =>
    list.forEach((c) => {
      const id = `${k}\u0000${samples[c]}`;
      let i = key.get(id);
      if (i === undefined) {
        key.set(id, (i = cols.length));
        cols.push({ sample: samples[c]!, group: k, cells: [] });
      }
      cols[i]!.cells.push(c);
    }),
  );
  const n1 = cols.filter((c) => c.group === 0).length;
  const n2 = cols.length - n1;
  if (n1 < 2 || n2 < 2) {
    throw new TaskError('enrichment.pseudobulkSamples', `The pseudobulk test needs 2 samples per group.`, {
      key: sampleKey,
      n1,
      n2,
    });
  }
  const counts = result.counts();
  const nCols = cols.length;
  const x = new Float64Array(result.nGenes * nCols);
  cols.forEach((col, j) => {
    for (const c of col.cells)
      for (let k = counts.indptr[c]!; k < counts.indptr[c + 1]!; k++)
        x[counts.indices[k]! * nCols + j]! += counts.data[k]!;
  });
  const group = Uint8Array.from(cols, (c) => (c.group === 0 ? 1 : 0));
  const v = limmaVoom(x, result.nGenes, nCols, group);
  const order = v.genes.map((_, i) => i).sort((a, b) => v.pval[a]! - v.pval[b]! || a - b);
  const table: TaskTable = {
    columns: [...PSEUDOBULK_COLUMNS],
    rows: order.map((i) => [
      result.genes.symbols[v.genes[i]!]!,
      v.logFC[i]!,
      v.aveExpr[i]!,
      v.t[i]!,
      v.pval[i]!,
      v.padj[i]!,
    ]),
  };
  return {
    table,
    samples: [n1, n2] as [number, number],
    genesTested: v.genes.length,
    significant: order.filter((i) => v.padj[i]! < 0.05).length,
    columns: cols.map((c) => ({ sample: c.sample, group: c.group })),
    matrix: x,
  };
}
