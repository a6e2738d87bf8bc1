import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { writeH5ad } from '@cellcloud/formats/write-h5ad';
import type { CountMatrix, Dataset } from '@cellcloud/formats/matrix';
import { sharedData } from '@cellcloud/testkit';

/**
 * The pbmc3k-derived CELLxGENE-schema h5ad of the public database tests (issue 20): pbmc3k's
 * counts with the Seurat tutorial labels as `cell_type`, Ensembl ids from the GRCh38 features.
 */
export const CELLXGENE_INPUTS = {
  pbmc: sharedData('pbmc3k/10x'),
  labels: sharedData('pbmc3k/pbmc3k_seurat_labels.csv'),
  features: sharedData('gene_ids/human_GRCh38-2024-A_features.tsv.gz'),
};

/** barcode → Seurat label of pbmc3k (2,638 labelled cells). */
export function pbmcLabels(): Map<string, string> {
  return new Map(
    readFileSync(CELLXGENE_INPUTS.labels!, 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split(',') as [string, string]),
  );
}

/** GRCh38 symbol → Ensembl id (first id of a symbol), read on first use. */
let ensemblIds: Map<string, string> | undefined;
function ensemblOf(symbol: string): string | undefined {
  if (!ensemblIds) {
    ensemblIds = new Map();
    for (const line of gunzipSync(readFileSync(CELLXGENE_INPUTS.features!)).toString('utf8').split('\n')) {
      const [id, sym] = line.split('\t');
      if (id && sym && !ensemblIds.has(sym)) ensemblIds.set(sym, id);
    }
  }
  return ensemblIds.get(symbol);
}

/** Cell Ontology ids of the Seurat tutorial's pbmc3k labels (what a curator would assign). */
const CL: Record<string, string> = {
  'Naive CD4 T': 'CL:0000895',
  'Memory CD4 T': 'CL:0000897',
  'CD14+ Mono': 'CL:0001054',
  B: 'CL:0000236',
  'CD8 T': 'CL:0000625',
  'FCGR3A+ Mono': 'CL:0002396',
  NK: 'CL:0000623',
  DC: 'CL:0000451',
  Platelet: 'CL:0000233',
};

/** Cells `keep` and the genes with a row in `geneRow` (old row → new row, -1 = dropped). */
export function subset(m: CountMatrix, keep: number[], geneRow: Int32Array, nGenes: number): CountMatrix {
  const indptr = new Float64Array(keep.length + 1);
  const indices: number[] = [];
  const data: number[] = [];
  keep.forEach((j, k) => {
    for (let p = m.indptr[j]!; p < m.indptr[j + 1]!; p++) {
      const g = geneRow[m.indices[p]!]!;
      if (g < 0) continue;
      indices.push(g);
      data.push(m.data[p]!);
    }
    indptr[k + 1] = indices.length;
  });
  return {
    nGenes,
    nCells: keep.length,
    indptr,
    indices: Uint32Array.from(indices),
    data: Float32Array.from(data),
  };
}

/**
 * A CELLxGENE-schema h5ad built from pbmc3k: the Seurat labels as `cell_type` with their Cell
 * Ontology ids, two donors, blood / normal / 10x 3' v1 ontology columns; `omit` drops columns and
 * `badIds` breaks the ontology id format, to build schema-violating files.
 */
export async function cellxgeneH5ad(
  d: Dataset,
  lab: Map<string, string>,
  opts: { omit?: string[]; badIds?: boolean } = {},
): Promise<Uint8Array> {
  const keep = d.cells.barcodes.map((b, i) => (lab.has(b) ? i : -1)).filter((i) => i >= 0);
  const barcodes = keep.map((i) => d.cells.barcodes[i]!);
  const ct = barcodes.map((b) => lab.get(b)!);
  const n = barcodes.length;
  // pbmc3k's genes.tsv holds symbols only: the curator maps them to GRCh38 Ensembl ids (the
  // schema requires them) and drops the unmapped ones.
  const geneRow = new Int32Array(d.genes.ids.length).fill(-1);
  const ids: string[] = [];
  const symbols: string[] = [];
  const used = new Set<string>();
  d.genes.symbols.forEach((sym, i) => {
    const id = ensemblOf(sym);
    if (!id || used.has(id)) return;
    used.add(id);
    geneRow[i] = ids.length;
    ids.push(id);
    symbols.push(sym);
  });
  const fill = (v: string) => ({ kind: 'categorical' as const, values: Array<string>(n).fill(v) });
  const obs: Record<string, { kind: 'categorical'; values: string[] }> = {
    cell_type: { kind: 'categorical', values: ct },
    cell_type_ontology_term_id: { kind: 'categorical', values: ct.map((c) => (opts.badIds ? c : CL[c]!)) },
    donor_id: { kind: 'categorical', values: barcodes.map((_, i) => (i < n / 2 ? 'donor_A' : 'donor_B')) },
    tissue: fill('blood'),
    tissue_ontology_term_id: fill('UBERON:0000178'),
    disease: fill('normal'),
    disease_ontology_term_id: fill('PATO:0000461'),
    assay: fill("10x 3' v1"),
    assay_ontology_term_id: fill('EFO:0009896'),
    development_stage: fill('adult stage'),
    development_stage_ontology_term_id: fill('HsapDv:0000087'),
    organism_ontology_term_id: fill('NCBITaxon:9606'),
  };
  for (const o of opts.omit ?? []) delete obs[o];
  return writeH5ad({
    counts: subset(d.counts, keep, geneRow, ids.length),
    genes: { ids, symbols },
    barcodes,
    obs,
    var: { feature_name: { kind: 'categorical', values: symbols } },
  });
}
