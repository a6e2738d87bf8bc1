import type { GroupSpec } from '@cellcloud/contracts/tasks/define';
import { TaskError } from '@cellcloud/engine/tasks/kit';
import type { TaskRunContext } from '@cellcloud/engine/tasks/kit';
import { compareTwoGroups, degRowsFromTable, type DegGroupRow } from './compare';

export interface ComparisonRows {
  labels: [string, string];
  cells: [number, number];
  rows: [DegGroupRow[], DegGroupRow[]];
  /** Genes detected in either group (dataset indices): the ORA universe. */
  tested: Int32Array;
}

/**
 * The step-1 comparison that enrich / gsea work on: the source deg-groups task's tables when the
 * run names one, otherwise the two groups of the params tested here (CLI use).
 */
export async function comparisonRows(
  ctx: TaskRunContext<{ group1?: GroupSpec; group2?: GroupSpec; overlap: 'refuse' | 'drop' }>,
  onProgress: (f: number) => void,
): Promise<ComparisonRows> {
  const { source, result, params } = ctx;
  if (source) {
    // the deg-groups task's summary (packages/tasks/src/deg-groups/contract.ts degGroupsSummary)
    const summary = source.summary as Record<'group1' | 'group2', { label: string; cells: number }>;
    const rows = [
      degRowsFromTable(await source.readTable('group1'), (n) => result.geneIndex(n)),
      degRowsFromTable(await source.readTable('group2'), (n) => result.geneIndex(n)),
    ] as [DegGroupRow[], DegGroupRow[]];
    const seen = new Uint8Array(result.nGenes);
    for (const r of rows[0]) if (r.g >= 0 && (r.pct1 > 0 || r.pct2 > 0)) seen[r.g] = 1;
    const tested: number[] = [];
    seen.forEach((v, g) => v && tested.push(g));
    onProgress(1);
    return {
      labels: [summary.group1.label, summary.group2.label],
      cells: [summary.group1.cells, summary.group2.cells],
      rows,
      tested: Int32Array.from(tested),
    };
  }
  if (!params.group1 || !params.group2)
    throw new TaskError('enrichment.noSource', 'Give the two groups or a step-1 task.');
  const cmp = compareTwoGroups(result, params.group1, params.group2, params.overlap, onProgress);
  return {
    labels: cmp.labels,
    cells: [cmp.cells[0].length, cmp.cells[1].length],
    rows: cmp.rows,
    tested: cmp.tested,
  };
}
