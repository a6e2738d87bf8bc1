import { gunzipSync } from 'node:zlib';
import { parseObsFile } from '@cellcloud/engine/cli/obs-file';
import type { Dataset } from '@cellcloud/formats';

/**
 * The optional metadata / group table of an upload (issue 13): first column the cell barcode,
 * header optional, comma or tab; every other column becomes a per-cell column of the sample
 * (categorical → annotation level, numeric → continuous value) stored in its canonical h5ad, so
 * the analysis carries it like an h5ad's own obs. Barcodes matching no cell are reported as a
 * dataset warning, never silently dropped; a column named like an existing one gets `_metadata`.
 */
export async function attachMetadataFiles(
  storage: { getBytes(key: string): Promise<Uint8Array> },
  files: { name: string; key: string }[],
  dataset: Dataset,
): Promise<void> {
  for (const f of files) {
    let bytes = await storage.getBytes(f.key);
    if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = gunzipSync(bytes);
    const text = new TextDecoder().decode(bytes).replace(/^\uFEFF/, '');
    const parsed = parseObsFile(text, dataset.cells.barcodes);
    if (parsed.matched === 0) {
      dataset.warnings.push(
        `metadata file ${f.name}: no barcode matches a cell of the sample; its columns were not attached`,
      );
      continue;
    }
    for (const [key, col] of Object.entries(parsed.columns)) {
      dataset.cells.columns[key in dataset.cells.columns ? `${key}_metadata` : key] = col;
    }
    const missing = dataset.cells.barcodes.length - parsed.matched;
    if (parsed.unmatched.length || missing) {
      dataset.warnings.push(
        `metadata file ${f.name}: ${parsed.matched} of ${dataset.cells.barcodes.length} cells matched` +
          (parsed.unmatched.length
            ? `; ${parsed.unmatched.length} barcode(s) match no cell (e.g. ${parsed.unmatched.slice(0, 3).join(', ')})`
            : '') +
          (missing ? `; ${missing} cell(s) have no row ("NA")` : ''),
      );
    }
  }
}
