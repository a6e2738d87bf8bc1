import type { CellColumn, Dataset } from '@cellcloud/formats/matrix';

/**
 * The first `n` cells of a dataset, every gene kept: a smaller real dataset (e.g. of pbmc3k) for
 * the tests that check plumbing (checkpoints, queues, version swaps) and not what the analysis
 * finds. The counts are stored by cell, so the first `n` cells are a prefix of the arrays.
 */
export function firstCells(d: Dataset, n: number): Dataset {
  if (n > d.counts.nCells) throw new Error(`${n} cells asked of a dataset of ${d.counts.nCells}`);
  const nnz = d.counts.indptr[n]!;
  const columns: Record<string, CellColumn> = {};
  for (const [key, c] of Object.entries(d.cells.columns))
    columns[key] =
      c.kind === 'categorical'
        ? { kind: 'categorical', values: c.values.slice(0, n) }
        : { kind: 'numeric', values: c.values.slice(0, n) };
  return {
    ...d,
    counts: {
      nGenes: d.counts.nGenes,
      nCells: n,
      indptr: d.counts.indptr.slice(0, n + 1),
      indices: d.counts.indices.slice(0, nnz),
      data: d.counts.data.slice(0, nnz),
    },
    cells: { barcodes: d.cells.barcodes.slice(0, n), columns },
    embeddings: Object.fromEntries(
      Object.entries(d.embeddings).map(([k, e]) => [
        k,
        { dims: e.dims, values: e.values.slice(0, n * e.dims) },
      ]),
    ),
  };
}
