import type { CountMatrix, Dataset } from '@cellcloud/formats/matrix';
import { write10xMtx } from '@cellcloud/formats/write-10x-mtx';
import { zipFiles } from '@cellcloud/formats/write-zip';

/**
 * The Seurat-ready bundle of a result (issue 21): a zip with
 *   counts/{matrix.mtx,features.tsv,barcodes.tsv}.gz       raw counts (10x v3, integer)
 *   normalized/{matrix.mtx,features.tsv,barcodes.tsv}.gz   log1p(count / total · 1e4) (real)
 *   metadata.csv      barcode + every annotation level and QC column of analysis.h5ad obs
 *   embeddings.csv    barcode + <embedding>_1, <embedding>_2[, _3] for every obsm embedding
 *   load_seurat.R     builds the Seurat object (counts, data, meta.data, reductions, Idents)
 */
export const LOAD_SEURAT_R = `# Builds a Seurat object from this CellCloud export. Run in the unzipped folder:
#   Rscript load_seurat.R      (or source("load_seurat.R") in R; the object is \`obj\`)
suppressPackageStartupMessages(library(Seurat))
counts <- Read10X("counts")
obj <- CreateSeuratObject(counts = counts, project = "CellCloud")
norm <- Read10X("normalized")
obj <- tryCatch(SetAssayData(obj, layer = "data", new.data = norm),
                error = function(e) SetAssayData(obj, slot = "data", new.data = norm))
meta <- read.csv("metadata.csv", row.names = 1, check.names = FALSE, stringsAsFactors = TRUE)
obj <- AddMetaData(obj, meta[colnames(obj), , drop = FALSE])
emb <- read.csv("embeddings.csv", row.names = 1, check.names = FALSE)
for (name in unique(sub("_[0-9]+$", "", colnames(emb)))) {
  m <- as.matrix(emb[colnames(obj), grep(paste0("^", name, "_[0-9]+$"), colnames(emb)), drop = FALSE])
  key <- paste0(gsub("[^A-Za-z0-9]", "", toupper(name)), "_")
  colnames(m) <- paste0(key, seq_len(ncol(m)))
  obj[[tolower(gsub("[^A-Za-z0-9]", "", name))]] <- CreateDimReducObject(embeddings = m, key = key, assay = "RNA")
}
if ("cluster" %in% colnames(obj@meta.data)) Idents(obj) <- "cluster"
print(obj)
`;

const csvCell = (v: string | number) => {
  const s = typeof v === 'number' ? (Number.isFinite(v) ? String(v) : 'NA') : v;
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

function logNormalized(m: CountMatrix): CountMatrix {
  const data = new Float32Array(m.data.length);
  for (let c = 0; c < m.nCells; c++) {
    let total = 0;
    for (let k = m.indptr[c]!; k < m.indptr[c + 1]!; k++) total += m.data[k]!;
    const f = total > 0 ? 1e4 / total : 0;
    for (let k = m.indptr[c]!; k < m.indptr[c + 1]!; k++)
      data[k] = Math.round(Math.log1p(m.data[k]! * f) * 1e6) / 1e6;
  }
  return { ...m, data };
}

export function seuratBundle(ds: Pick<Dataset, 'counts' | 'genes' | 'cells' | 'embeddings'>): Uint8Array {
  const barcodes = ds.cells.barcodes;
  const files: Record<string, Uint8Array> = {};
  const enc = new TextEncoder();
  for (const [dir, m, field] of [
    ['counts', ds.counts, 'integer'],
    ['normalized', logNormalized(ds.counts), 'real'],
  ] as const) {
    const out = write10xMtx(m, ds.genes, barcodes, { field });
    for (const [name, bytes] of Object.entries(out)) files[`${dir}/${name}.gz`] = bytes;
  }
  const cols = Object.entries(ds.cells.columns);
  const meta = [['barcode', ...cols.map(([k]) => k)].map(csvCell).join(',')];
  barcodes.forEach((b, c) => meta.push([b, ...cols.map(([, col]) => col.values[c]!)].map(csvCell).join(',')));
  files['metadata.csv'] = enc.encode(meta.join('\n') + '\n');
  const embs = Object.entries(ds.embeddings).map(([k, e]) => [k.replace(/^X_/, ''), e] as const);
  const head = [
    'barcode',
    ...embs.flatMap(([k, e]) => Array.from({ length: e.dims }, (_, d) => `${k}_${d + 1}`)),
  ];
  const lines = [head.map(csvCell).join(',')];
  barcodes.forEach((b, c) => {
    const row: (string | number)[] = [b];
    for (const [, e] of embs) for (let d = 0; d < e.dims; d++) row.push(e.values[c * e.dims + d]!);
    lines.push(row.map(csvCell).join(','));
  });
  files['embeddings.csv'] = enc.encode(lines.join('\n') + '\n');
  files['load_seurat.R'] = enc.encode(LOAD_SEURAT_R);
  return zipFiles(files);
}
