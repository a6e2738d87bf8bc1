import type { CountMatrix, Dataset } from '@cellcloud/formats/matrix';
import { cellRanges, featuresTsv, matrixMarketChunks } from '@cellcloud/formats/write-10x-mtx';
import { cellBlocksOf, type CellBlocks } from '@cellcloud/formats/cell-blocks';
import { concatChunks } from '@cellcloud/formats/sources';
import { csvCell } from '@cellcloud/formats/table-export';
import { zipWriter } from '@cellcloud/formats/write-zip';

/**
 * The Seurat-ready bundle of a result (issue 21): a zip with
 *   counts/{matrix.mtx,features.tsv,barcodes.tsv}.gz       raw counts (10x v3, integer)
 *   normalized/{matrix.mtx,features.tsv,barcodes.tsv}.gz   log1p(count / total · 1e4) (real)
 *   metadata.csv      barcode + every annotation level and QC column of analysis.h5ad obs
 *   embeddings.csv    barcode + <embedding>_1, <embedding>_2[, _3] for every obsm embedding
 *   load_seurat.R     builds the Seurat object (counts, data, meta.data, reductions, Idents)
 * written as a stream (`writeSeuratBundle`): the MTX text is produced, gzipped and zipped a chunk of
 * 65,536 entries at a time and the normalized values are computed from the counts as they are
 * written, so the export holds no matrix copy, no whole text and no whole archive (issue 21).
 */
export const LOAD_SEURAT_R = `# Builds a Seurat object from this CellCloud export. Run in the unzipped folder:
#   Rscript load_seurat.R      (or source("load_seurat.R") in R; the object is \`obj\`)
suppressPackageStartupMessages(library(Seurat))
counts <- Read10X("counts")
obj <- CreateSeuratObject(counts = counts, project = "CellCloud")
norm <- Read10X("normalized")
obj <- tryCatch(SetAssayData(obj, layer = "data", new.data = norm),
                error = function(e) SetAssayData(obj, slot = "data", new.data = norm))
# text a spreadsheet would read as a formula was written with a leading ' (=, +, -, @, tab, CR): undone here
unquote <- function(x) sub("^'([-=+@\\t\\r])", "\\\\1", x)
unquoted <- function(t) {
  dimnames(t) <- lapply(dimnames(t), unquote)
  t[] <- lapply(t, function(v) if (is.character(v)) unquote(v) else v)
  t
}
meta <- unquoted(read.csv("metadata.csv", row.names = 1, check.names = FALSE, stringsAsFactors = FALSE))
meta[] <- lapply(meta, function(v) if (is.character(v)) factor(v) else v)
obj <- AddMetaData(obj, meta[colnames(obj), , drop = FALSE])
emb <- unquoted(read.csv("embeddings.csv", row.names = 1, check.names = FALSE))
for (name in unique(sub("_[0-9]+$", "", colnames(emb)))) {
  m <- as.matrix(emb[colnames(obj), grep(paste0("^", name, "_[0-9]+$"), colnames(emb)), drop = FALSE])
  key <- paste0(gsub("[^A-Za-z0-9]", "", toupper(name)), "_")
  colnames(m) <- paste0(key, seq_len(ncol(m)))
  obj[[tolower(gsub("[^A-Za-z0-9]", "", name))]] <- CreateDimReducObject(embeddings = m, key = key, assay = "RNA")
}
if ("cluster" %in% colnames(obj@meta.data)) Idents(obj) <- "cluster"
print(obj)
`;

/** A CSV field (table-export's): non-finite numbers as R's NA; text spreadsheet-safe (load_seurat.R unquotes). */
const csvField = (v: string | number) => csvCell(typeof v === 'number' && !Number.isFinite(v) ? 'NA' : v);

/** log1p(count / total · 1e4) of a stored count `x` of cell `c`, rounded to 6 decimals — computed per entry. */
function logNormalizer(m: CellBlocks): (x: number, c: number) => number {
  const scale = new Float64Array(m.nCells);
  for (const [j0, j1] of cellRanges(m)) {
    const base = m.indptr[j0]!;
    const { data } = m.entries(base, m.indptr[j1]!);
    for (let c = j0; c < j1; c++) {
      let total = 0;
      for (let k = m.indptr[c]! - base, end = m.indptr[c + 1]! - base; k < end; k++) total += data[k]!;
      scale[c] = total > 0 ? 1e4 / total : 0;
    }
  }
  return (x, c) => Math.round(Math.log1p(x * scale[c]!) * 1e6) / 1e6;
}

const enc = new TextEncoder();

/** CSV rows (header first) encoded a few thousand rows at a time. */
function* csvChunks(
  header: string[],
  n: number,
  row: (i: number) => (string | number)[],
): Generator<Uint8Array> {
  let lines = [header.map(csvField).join(',')];
  for (let i = 0; i < n; i++) {
    lines.push(row(i).map(csvField).join(','));
    if (lines.length >= 4096) {
      yield enc.encode(lines.join('\n') + '\n');
      lines = [];
    }
  }
  yield enc.encode(lines.length ? lines.join('\n') + '\n' : '');
}

type BundleInput = Pick<Dataset, 'genes' | 'cells' | 'embeddings'>;

/** Streams the bundle's zip bytes to `sink`, in order, synchronously. */
export function writeSeuratBundle(
  ds: BundleInput & { counts: CellBlocks },
  sink: (chunk: Uint8Array) => void,
): void {
  const zip = zipWriter(sink);
  const barcodes = ds.cells.barcodes;
  for (const [dir, field, value] of [
    ['counts', 'integer', undefined],
    ['normalized', 'real', logNormalizer(ds.counts)],
  ] as const) {
    zip.add(`${dir}/matrix.mtx.gz`, matrixMarketChunks(ds.counts, field, value));
    zip.add(`${dir}/features.tsv.gz`, [enc.encode(featuresTsv(ds.genes))]);
    zip.add(`${dir}/barcodes.tsv.gz`, [enc.encode(barcodes.join('\n') + '\n')]);
  }
  const cols = Object.entries(ds.cells.columns);
  zip.add(
    'metadata.csv',
    csvChunks(['barcode', ...cols.map(([k]) => k)], barcodes.length, (c) => [
      barcodes[c]!,
      ...cols.map(([, col]) => col.values[c]!),
    ]),
  );
  const embs = Object.entries(ds.embeddings).map(([k, e]) => [k.replace(/^X_/, ''), e] as const);
  const head = [
    'barcode',
    ...embs.flatMap(([k, e]) => Array.from({ length: e.dims }, (_, d) => `${k}_${d + 1}`)),
  ];
  zip.add(
    'embeddings.csv',
    csvChunks(head, barcodes.length, (c) => {
      const row: (string | number)[] = [barcodes[c]!];
      for (const [, e] of embs) for (let d = 0; d < e.dims; d++) row.push(e.values[c * e.dims + d]!);
      return row;
    }),
  );
  zip.add('load_seurat.R', [enc.encode(LOAD_SEURAT_R)]);
  zip.end();
}

/** The whole bundle in memory (small results and tests); jobs stream with `writeSeuratBundle`. */
export function seuratBundle(ds: BundleInput & { counts: CountMatrix }): Uint8Array {
  const chunks: Uint8Array[] = [];
  writeSeuratBundle({ ...ds, counts: cellBlocksOf(ds.counts) }, (c) => chunks.push(c));
  return concatChunks(chunks);
}
