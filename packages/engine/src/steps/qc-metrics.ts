import type { CountMatrix } from '@cellcloud/formats/matrix';

/** Per-cell QC metrics (scanpy names in comments): what filtering and the evaluation use. */
export interface QcMetrics {
  nGenes: Float64Array; // n_genes_by_counts
  nUmi: Float64Array; // total_counts
  pctMito: Float64Array; // pct_counts_mito (MT-/mt-)
  pctRibo: Float64Array; // pct_counts_ribo (RPS/RPL, Rps/Rpl)
}

const MITO = /^mt-/i;
const RIBO = /^rp[sl]/i;

/** Flags mitochondrial (MT-/mt-) and ribosomal (RPS/RPL/Rps/Rpl) genes by symbol (docs/product/limits.md#gene-prefixes). */
export function geneClasses(symbols: string[]): { mito: Uint8Array; ribo: Uint8Array } {
  const mito = new Uint8Array(symbols.length);
  const ribo = new Uint8Array(symbols.length);
  symbols.forEach((s, g) => {
    if (MITO.test(s)) mito[g] = 1;
    if (RIBO.test(s)) ribo[g] = 1;
  });
  return { mito, ribo };
}

/** `classes`: geneClasses(symbols), given by callers that compute the metrics chunk by chunk (stream/qc.ts). */
export function computeQcMetrics(
  m: CountMatrix,
  symbols: string[],
  classes: { mito: Uint8Array; ribo: Uint8Array } = geneClasses(symbols),
): QcMetrics {
  const { mito, ribo } = classes;
  const nGenes = new Float64Array(m.nCells);
  const nUmi = new Float64Array(m.nCells);
  const pctMito = new Float64Array(m.nCells);
  const pctRibo = new Float64Array(m.nCells);
  for (let c = 0; c < m.nCells; c++) {
    let genes = 0;
    let total = 0;
    let mt = 0;
    let rb = 0;
    for (let k = m.indptr[c]; k < m.indptr[c + 1]; k++) {
      const v = m.data[k];
      if (v <= 0) continue;
      genes++;
      total += v;
      const g = m.indices[k];
      if (mito[g]) mt += v;
      if (ribo[g]) rb += v;
    }
    nGenes[c] = genes;
    nUmi[c] = total;
    pctMito[c] = total > 0 ? (100 * mt) / total : 0;
    pctRibo[c] = total > 0 ? (100 * rb) / total : 0;
  }
  return { nGenes, nUmi, pctMito, pctRibo };
}
