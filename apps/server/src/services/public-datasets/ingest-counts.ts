import { gunzipSync } from 'node:zlib';
import type { SchemaViolation } from '@cellcloud/contracts/public-datasets';
import type { CellColumn, Dataset } from '@cellcloud/formats';
import { parseCsvRows } from '@cellcloud/contracts/tasks/csv';
import type { Db } from '../../db/client';
import type { Storage } from '../../storage/storage';
import { parseMeta, PublicIngestError } from './ingest';
import { cat, distinct, storePublicDataset, type IngestResult, type Standardized } from './store';

const SPECIES = ['Homo sapiens', 'Mus musculus'];

/**
 * The cells table (CSV, or TSV when the header has a tab; a header row; first column the barcode)
 * as categorical per-cell columns in the matrix's cell order ("NA" for a cell without a row).
 */
function cellColumns(text: string, barcodes: readonly string[]) {
  const tab = text.slice(0, text.indexOf('\n') >>> 0).includes('\t');
  const rows = tab
    ? text
        .split(/\r?\n/)
        .filter(Boolean)
        .map((l) => l.split('\t'))
    : parseCsvRows(text).filter((r) => r.length > 1 || r[0]);
  const [header = [], ...data] = rows;
  const index = new Map(barcodes.map((b, i) => [b, i]));
  const row = new Int32Array(barcodes.length).fill(-1);
  let matched = 0;
  data.forEach((r, k) => {
    const i = index.get(r[0] ?? '');
    if (i !== undefined && row[i] === -1) {
      row[i] = k;
      matched++;
    }
  });
  const columns: Record<string, CellColumn> = {};
  header.slice(1).forEach((name, c) => {
    columns[name] = {
      kind: 'categorical',
      values: Array.from(row, (k) => (k >= 0 ? (data[k]![c + 1] ?? 'NA') : 'NA')),
    };
  });
  return { columns, matched };
}
const LEVELS = ['annot_full', 'annot_sub', 'annot_sub2', 'annot_article', 'cluster'] as const;

/**
 * Curation ingest (b): a counts file (10x folder / mtx / h5 or an h5ad of raw counts) with a
 * metadata sheet (issue 20). The sheet gives what a CELLxGENE file carries per cell: `species`,
 * `tissue`, `disease`, `assay` (required; `developmentStage` optional) and, through `cells` (a
 * per-cell CSV/TSV, first column the barcode) and `columns`, the Sample ID and the annotation
 * levels. Rules (all reported at once, nothing stored on any violation): `meta.<field>.required`,
 * `meta.species.supported`, `cells.table.required` (columns named without a table),
 * `cells.column.<name>.missing`, `cells.barcodes.cover` (every cell needs a row), `counts.integer`,
 * `X.nonEmpty`. Without a sample column the whole dataset is one sample named by its id.
 */
export async function ingestPublicCounts(
  deps: { db: Db; storage: Storage },
  d: Dataset,
  rawMeta: unknown,
  cellTable?: { name: string; bytes: Uint8Array },
): Promise<IngestResult> {
  return storePublicDataset(deps, standardizePublicCounts(d, rawMeta, cellTable));
}

/** The sheet rules above (PublicIngestError with every violated rule) and the standardization. */
export function standardizePublicCounts(
  d: Dataset,
  rawMeta: unknown,
  cellTable?: { name: string; bytes: Uint8Array },
): Standardized {
  const meta = parseMeta(rawMeta);
  const v: SchemaViolation[] = [];
  if (d.counts.nCells === 0) v.push({ rule: 'X.nonEmpty', message: 'the matrix has no cells' });
  if (d.nonInteger) v.push({ rule: 'counts.integer', message: 'the counts are not integers' });
  if (!meta.species) v.push({ rule: 'meta.species.required', message: 'the sheet names no `species`' });
  else if (!SPECIES.includes(meta.species))
    v.push({ rule: 'meta.species.supported', message: `species must be one of ${SPECIES.join(', ')}` });
  for (const f of ['tissue', 'disease', 'assay'] as const)
    if (!meta[f]?.length) v.push({ rule: `meta.${f}.required`, message: `the sheet names no \`${f}\`` });
  const mapped = Object.entries(meta.columns ?? {}).filter((e): e is [string, string] => !!e[1]);
  if (mapped.length && !cellTable)
    v.push({ rule: 'cells.table.required', message: '`columns` are named but there is no `cells` table' });
  if (cellTable) {
    let bytes = cellTable.bytes;
    if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = gunzipSync(bytes);
    const text = new TextDecoder().decode(bytes).replace(/^\uFEFF/, '');
    const parsed = cellColumns(text, d.cells.barcodes);
    for (const [, col] of mapped)
      if (!parsed.columns[col])
        v.push({
          rule: `cells.column.${col}.missing`,
          message: `the cells table ${cellTable.name} has no column \`${col}\``,
        });
    if (parsed.matched < d.cells.barcodes.length)
      v.push({
        rule: 'cells.barcodes.cover',
        message: `${d.cells.barcodes.length - parsed.matched} of ${d.cells.barcodes.length} cells have no row in ${cellTable.name}`,
        params: { missing: d.cells.barcodes.length - parsed.matched, total: d.cells.barcodes.length },
      });
    for (const [key, col] of Object.entries(parsed.columns))
      d.cells.columns[key in d.cells.columns ? `${key}_metadata` : key] = col;
  }
  if (v.length) throw new PublicIngestError(v);

  const n = d.cells.barcodes.length;
  const column = (name: string | undefined) => (name ? cat(d, name) : undefined);
  const levels: Record<string, CellColumn> = {
    'Sample ID': {
      kind: 'categorical',
      values: column(meta.columns?.sample) ?? Array<string>(n).fill(meta.id),
    },
  };
  for (const level of LEVELS) {
    const values = column(meta.columns?.[level]);
    if (values) levels[level] = { kind: 'categorical', values };
  }
  const sub = (levels.annot_sub as { values: string[] } | undefined)?.values;
  const full = (levels.annot_full as { values: string[] } | undefined)?.values;
  const pairs = sub && full ? distinct(sub.map((s, i) => `${s}\u0000${full[i]}`)) : [];
  return {
    d,
    meta,
    s: {
      species: meta.species!,
      levels,
      facets: {
        tissue: meta.tissue!,
        disease: meta.disease!,
        developmentStage: meta.developmentStage ?? [],
        assay: meta.assay!,
      },
      cellTypes: distinct([...(sub ?? []), ...(full ?? [])]),
      ontologyIds: [],
      mapping: pairs.map((p) => {
        const [annotSub, annotFull] = p.split('\u0000') as [string, string];
        return { annotSub, annotFull, ontologyId: null };
      }),
      warnings: [...d.warnings],
    },
  };
}
