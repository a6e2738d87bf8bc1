// Test-only helpers for the methods tests: loading shared data, log-normalisation, PCA input,
// and synthetic count matrices with known structure.
import type { CountMatrix } from '@cellcloud/formats/matrix';
import { read10xMtx } from '@cellcloud/formats';
import { folderBundle } from '@cellcloud/formats/node-sources';
import { Random } from '../../src/methods/random';
import { sparsePca } from '../../src/methods/sparse-pca';

export async function load10x(dir: string) {
  return read10xMtx(await folderBundle(dir));
}

/** Library size to 1e4 then log1p (scanpy normalize_total + log1p), same sparsity pattern. */
export function logNormalize(m: CountMatrix): CountMatrix {
  const data = new Float32Array(m.data.length);
  for (let c = 0; c < m.nCells; c++) {
    let total = 0;
    for (let t = m.indptr[c]; t < m.indptr[c + 1]; t++) total += m.data[t];
    const f = total > 0 ? 1e4 / total : 0;
    for (let t = m.indptr[c]; t < m.indptr[c + 1]; t++) data[t] = Math.log1p(m.data[t] * f);
  }
  return { ...m, data };
}

/** Scaled PCA (z-scored genes) of a log-normalised matrix on the selected genes. */
export function pcaOf(logm: CountMatrix, selected: Uint8Array, nPcs: number): Float32Array {
  const genes = Int32Array.from(Array.from(selected).flatMap((s, g) => (s ? [g] : [])));
  const col = new Int32Array(logm.nGenes).fill(-1);
  genes.forEach((g, j) => (col[g] = j));
  const sum = new Float64Array(genes.length);
  const sq = new Float64Array(genes.length);
  for (let t = 0; t < logm.data.length; t++) {
    const j = col[logm.indices[t]];
    if (j >= 0) {
      sum[j] += logm.data[t];
      sq[j] += logm.data[t] ** 2;
    }
  }
  const n = logm.nCells;
  const center = sum.map((s) => s / n);
  const scale = sq.map((s, j) => {
    const v = (s - n * center[j] ** 2) / (n - 1);
    return v > 0 ? 1 / Math.sqrt(v) : 0;
  });
  return sparsePca(logm, genes, nPcs, { center, scale, seed: 1 }).pcs;
}

/** Expression of one gene per cell. */
export function geneValues(m: CountMatrix, gene: number): Float64Array {
  const out = new Float64Array(m.nCells);
  for (let c = 0; c < m.nCells; c++) {
    for (let t = m.indptr[c]; t < m.indptr[c + 1]; t++) if (m.indices[t] === gene) out[c] = m.data[t];
  }
  return out;
}

/** Build a CountMatrix from per-cell dense count columns. */
export function fromDenseColumns(columns: Float64Array[], nGenes: number): CountMatrix {
  const indptr = new Float64Array(columns.length + 1);
  const idx: number[] = [];
  const val: number[] = [];
  columns.forEach((col, c) => {
    for (let g = 0; g < nGenes; g++) {
      if (col[g] !== 0) {
        idx.push(g);
        val.push(col[g]);
      }
    }
    indptr[c + 1] = idx.length;
  });
  return {
    nGenes,
    nCells: columns.length,
    indptr,
    indices: Uint32Array.from(idx),
    data: Float32Array.from(val),
  };
}

/**
 * Synthetic clustered counts: `nTypes` cell types over `nGenes` genes, each type with
 * `markersPerType` up-regulated genes (×`fold`), Poisson counts with lognormal library sizes.
 * Returns the dense per-cell columns and the type of each cell.
 */
export function synthClusters(opts: {
  nCells: number;
  nGenes: number;
  nTypes: number;
  markersPerType: number;
  fold: number;
  meanLib: number;
  seed: number;
}) {
  const rng = new Random(opts.seed);
  const base = new Float64Array(opts.nGenes);
  for (let g = 0; g < opts.nGenes; g++) base[g] = Math.exp(rng.normal() * 1.2);
  const profiles: Float64Array[] = [];
  for (let k = 0; k < opts.nTypes; k++) {
    const p = Float64Array.from(base);
    for (let m = 0; m < opts.markersPerType; m++) p[k * opts.markersPerType + m] *= opts.fold;
    const total = p.reduce((a, b) => a + b, 0);
    profiles.push(p.map((v) => v / total));
  }
  const types = new Int32Array(opts.nCells);
  const columns: Float64Array[] = [];
  for (let c = 0; c < opts.nCells; c++) {
    const k = c % opts.nTypes;
    types[c] = k;
    const lib = opts.meanLib * Math.exp(0.3 * rng.normal());
    const col = new Float64Array(opts.nGenes);
    for (let g = 0; g < opts.nGenes; g++) col[g] = rng.poisson(lib * profiles[k][g]);
    columns.push(col);
  }
  return { columns, types, profiles };
}
