import type { Locale } from '@cellcloud/contracts';
import type { DegRow } from '@cellcloud/contracts/artifacts';
import { csvToTable } from '@cellcloud/contracts/tasks/csv';
import { markersCsv } from '@cellcloud/engine';
import { neutralizeCsv, sheetNames, XLSX_MAX_ROWS, xlsxWriter } from '@cellcloud/formats/table-export';
import type { ZipWriter } from '@cellcloud/formats/write-zip';
import { labelsOf } from './figures/labels';

/**
 * The `tables` download (issue 21): every table of a result — the marker table, each saved DE
 * result (docs/product/entities.md#deg-table DEG columns, as markers.csv) and every completed task's `tables/<name>.csv` as
 * stored (their documented columns) — as CSV files, plus `tables.xlsx` with one sheet per table
 * (names ≤ 31 characters, unique; written table by table with the streaming xlsxWriter) and
 * README.txt. Cells a spreadsheet would read as a formula are quoted in both (the CSV rewritten
 * from the stored one, the sheets by xlsxWriter; contracts/spreadsheet-safe.ts). A table with more
 * rows than a sheet holds
 * (XLSX_MAX_ROWS) is left out of the workbook and named in the README.
 */
export interface TableEntry {
  /** Path inside the zip, e.g. `tasks/cell-score_1a2b3c4d/scores.csv`. */
  path: string;
  /** Wanted sheet name (made valid and unique). */
  sheet: string;
  /** Storage key of the stored table. */
  key: string;
  /** `csv`: stored CSV; `deg-json`: an explorer DE result (DegRow[] JSON) written as markers.csv. */
  format: 'csv' | 'deg-json';
}

const enc = new TextEncoder();
const dec = new TextDecoder();

/** The CSV text of an entry from its stored bytes. */
export function entryCsv(e: TableEntry, bytes: Uint8Array): string {
  return e.format === 'deg-json' ? markersCsv(JSON.parse(dec.decode(bytes)) as DegRow[]) : dec.decode(bytes);
}

const xlsxValue = (v: string | number | boolean | null) =>
  v === null
    ? ''
    : typeof v === 'boolean'
      ? String(v)
      : typeof v === 'number' && !Number.isFinite(v)
        ? Number.isNaN(v)
          ? 'NaN'
          : v > 0
            ? 'Inf'
            : '-Inf'
        : v;

export async function writeTables(
  zip: ZipWriter,
  entries: TableEntry[],
  read: (key: string) => Promise<Uint8Array>,
  meta: { lang: Locale; resultName: string },
  progress: (f: number) => void = () => {},
  /** Rows a sheet may hold (XLSX_MAX_ROWS; tests pass a small one). */
  maxRows = XLSX_MAX_ROWS,
): Promise<{ sheets: string[]; leftOut: string[] }> {
  const t = labelsOf(meta.lang);
  const listed: string[] = [];
  const written: string[] = [];
  const notes: string[] = [];
  const names = sheetNames(entries.map((e) => e.sheet));
  // one table at a time: its CSV into the zip, its sheet into the workbook (compressed as it is
  // written), then it is dropped; the workbook's compressed bytes wait for the end of the zip
  const xlsx: Uint8Array[] = [];
  const book = xlsxWriter((c) => xlsx.push(c));
  for (const [i, e] of entries.entries()) {
    const text = entryCsv(e, await read(e.key));
    zip.add(e.path, [enc.encode(neutralizeCsv(text))]);
    const table = csvToTable(text);
    if (table.rows.length > maxRows) {
      notes.push(t('readme.tooBig', { rows: table.rows.length, max: maxRows, file: e.path }));
    } else {
      book.sheet(
        names[i]!,
        table.columns,
        table.rows.map((r) => r.map(xlsxValue)),
      );
      written.push(names[i]!);
      listed.push(`${e.path}\t${names[i]}\t${table.rows.length}`);
    }
    progress((i + 1) / (entries.length + 1));
  }
  if (listed.length) {
    book.end();
    zip.add('tables.xlsx', xlsx);
  }
  const readme = [
    t('readme.tables', { name: meta.resultName }),
    '',
    'file\tsheet\trows',
    ...listed,
    ...(notes.length ? ['', ...notes] : []),
    '',
  ].join('\n');
  zip.add('README.txt', [enc.encode(readme)]);
  return { sheets: written, leftOut: notes };
}
