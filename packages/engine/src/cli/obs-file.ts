import type { CellColumn } from '@cellcloud/formats/matrix';
import { csvToTable } from '../tasks/csv';

/**
 * Per-cell columns from a CSV/TSV file (CLI `--obs`): first column = barcode, other columns =
 * annotation levels (numeric when every matched value is a number, else categorical). The header
 * row is optional: the first row is data when its first field is one of the result's barcodes.
 * Cells absent from the file get "NA" (categorical) or NaN (numeric). Barcodes that match no cell
 * are counted and reported (a few examples given).
 */
export interface ObsFileResult {
  columns: Record<string, CellColumn>;
  matched: number;
  unmatched: string[];
  rows: number;
}

export function parseObsFile(text: string, barcodes: readonly string[]): ObsFileResult {
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  const tab = firstLine.includes('\t');
  const table = csvToTable(tab ? toCsv(text) : text);
  const rowsAll = [table.columns as (string | number | boolean | null)[], ...table.rows];
  const index = new Map<string, number>();
  barcodes.forEach((b, i) => index.set(b, i));
  // Barcodes written without the sample prefix or without the "-1" suffix still match when unique.
  const loose = new Map<string, number | -1>();
  barcodes.forEach((b, i) => {
    const bare = b.slice(b.lastIndexOf('_') + 1); // merged samples are `<sample>_<barcode>`
    for (const k of new Set([bare, b.replace(/-\d+$/, ''), bare.replace(/-\d+$/, '')])) {
      if (k === b || index.has(k)) continue;
      loose.set(k, loose.has(k) ? -1 : i);
    }
  });
  const find = (b: string): number => index.get(b) ?? loose.get(b) ?? -1;
  const hasHeader = find(String(rowsAll[0]?.[0] ?? '')) < 0;
  const header = hasHeader
    ? rowsAll[0]!.map((v, i) => (v === null || v === '' ? `column${i}` : String(v)))
    : [];
  const body = hasHeader ? rowsAll.slice(1) : rowsAll;
  const width = body.reduce((a, r) => Math.max(a, r.length), 0); // no spread: one row per cell
  if (!hasHeader) for (let c = 0; c < width; c++) header.push(c === 0 ? 'barcode' : `column${c}`);
  const unmatched: string[] = [];
  let matched = 0;
  const cellRow = new Int32Array(barcodes.length).fill(-1);
  body.forEach((r, ri) => {
    const b = String(r[0] ?? '');
    if (b === '') return;
    const c = find(b);
    if (c < 0) unmatched.push(b);
    else {
      if (cellRow[c] < 0) matched++;
      cellRow[c] = ri;
    }
  });
  const columns: Record<string, CellColumn> = {};
  for (let k = 1; k < header.length; k++) {
    const vals = Array.from(cellRow, (ri) => (ri < 0 ? null : (body[ri]![k] ?? null)));
    const numeric = vals.every((v) => v === null || typeof v === 'number') && vals.some((v) => v !== null);
    columns[header[k]!] = numeric
      ? { kind: 'numeric', values: Float64Array.from(vals, (v) => (v === null ? NaN : (v as number))) }
      : { kind: 'categorical', values: vals.map((v) => (v === null ? 'NA' : String(v))) };
  }
  return { columns, matched, unmatched, rows: body.length };
}

/** TSV → CSV (quoting fields that need it) so one parser reads both. */
function toCsv(tsv: string): string {
  return tsv
    .split(/\r?\n/)
    .map((line) =>
      line
        .split('\t')
        .map((f) => (/[",\n\r]/.test(f) ? `"${f.replace(/"/g, '""')}"` : f))
        .join(','),
    )
    .join('\n');
}
