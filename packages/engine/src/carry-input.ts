import type { CellColumn } from '@cellcloud/formats/matrix';
import type { Embedding } from './steps/embeddings';

/** obs keys the pipeline computes itself; an uploaded column of the same name is kept as `<key>_input`. */
function freeKey(key: string, taken: Record<string, unknown>): string {
  return key in taken ? `${key}_input` : key;
}

/**
 * Issue 13 — user labels carried through the analysis: the input's per-cell columns (h5ad obs —
 * categorical columns become annotation levels, numeric ones continuous values, names as in the
 * file; the optional metadata file's columns) and embeddings (h5ad obsm: X_umap, X_tsne, spatial…)
 * restricted to the cells that survive QC and doublet removal, matched by barcode. Input embeddings
 * whose name the pipeline computes (umap, tsne, pca) are kept as `<name>_input`.
 */
export function carryInputColumns(
  input: { barcodes: string[]; columns: Record<string, CellColumn>; embeddings?: Record<string, Embedding> },
  finalBarcodes: readonly string[],
  obs: Record<string, CellColumn>,
  embeddings: Record<string, Embedding>,
): void {
  const keys = Object.keys(input.columns);
  const embKeys = Object.keys(input.embeddings ?? {});
  if (!keys.length && !embKeys.length) return;
  const index = new Map<string, number>();
  input.barcodes.forEach((b, i) => index.set(b, i));
  const rows = Int32Array.from(finalBarcodes, (b) => index.get(b) ?? -1);
  for (const key of keys) {
    const col = input.columns[key]!;
    const out = freeKey(key, obs);
    if (col.kind === 'categorical') {
      obs[out] = {
        kind: 'categorical',
        values: Array.from(rows, (r) => (r >= 0 ? col.values[r]! : 'unknown')),
      };
    } else {
      obs[out] = { kind: 'numeric', values: Float64Array.from(rows, (r) => (r >= 0 ? col.values[r]! : NaN)) };
    }
  }
  for (const name of embKeys) {
    const e = input.embeddings![name]!;
    const base = name.replace(/^X_/, '');
    const out = base in embeddings || base === 'pca' ? `${base}_input` : base;
    const values = new Float32Array(rows.length * e.dims).fill(NaN);
    rows.forEach((r, i) => {
      if (r >= 0) values.set(e.values.subarray(r * e.dims, (r + 1) * e.dims), i * e.dims);
    });
    embeddings[out] = { dims: e.dims, values };
  }
}
