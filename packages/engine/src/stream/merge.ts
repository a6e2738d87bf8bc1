import type { CellChunks, GeneBlock, GeneBlocks } from '@cellcloud/formats/cell-chunks';
import type { CountMatrix } from '@cellcloud/formats/matrix';
import { unionGenes } from '../steps/inputs';
import type { StreamedSample } from './types';

/**
 * The samples merged as views (docs/engine-scaling.md, streamed path): cells concatenated in
 * sample order, genes unioned as mergeDatasets does (steps/inputs.ts: outer join on the gene ids,
 * or on the symbols when Ensembl ids meet symbol-only ids), each sample's gene indices remapped
 * when a chunk or block is decoded. Nothing is copied up front.
 */
export interface StreamedMerge {
  cells: CellChunks;
  genes: GeneBlocks;
  geneIds: string[];
  geneSymbols: string[];
  /** `<sample>_<barcode>` when there is more than one sample. */
  barcodes: string[];
  sampleOfCell: Int32Array;
  sampleNames: string[];
  /** First merged cell of each sample; the last entry is nCells. */
  sampleStart: number[];
}

export function mergeStreamed(samples: StreamedSample[]): StreamedMerge {
  const { geneIndex, geneIds, geneSymbols, keys } = unionGenes(
    samples.map((s) => ({ ids: s.geneIds, symbols: s.geneSymbols })),
  );
  const nGenes = geneIds.length;
  // merged gene of each sample gene; undefined where the sample's genes are the merged genes
  const remaps = samples.map((_, s) => {
    const same = keys[s].length === nGenes && keys[s].every((key, g) => geneIndex.get(key) === g);
    return same ? undefined : Uint32Array.from(keys[s], (key) => geneIndex.get(key) ?? 0);
  });
  const sampleStart = [0];
  for (const s of samples) sampleStart.push(sampleStart[sampleStart.length - 1] + s.cells.nCells);
  const nCells = sampleStart[samples.length];
  const sampleOfCell = new Int32Array(nCells);
  const barcodes: string[] = [];
  samples.forEach((s, i) => {
    sampleOfCell.fill(i, sampleStart[i], sampleStart[i + 1]);
    for (const b of s.barcodes) barcodes.push(samples.length > 1 ? `${s.name}_${b}` : b);
  });
  const base = { geneIds, geneSymbols, barcodes, sampleOfCell, sampleNames: samples.map((s) => s.name) };
  if (samples.length === 1 && !remaps[0])
    return { ...base, cells: samples[0].cells, genes: samples[0].genes, sampleStart };
  return {
    ...base,
    cells: mergedCells(samples, remaps, nGenes, sampleStart),
    genes: mergedGenes(samples, remaps, nGenes, sampleStart),
    sampleStart,
  };
}

/** The samples' cell chunks one after the other (a chunk never spans two samples). */
function mergedCells(
  samples: StreamedSample[],
  remaps: (Uint32Array | undefined)[],
  nGenes: number,
  sampleStart: number[],
): CellChunks {
  const owner: [number, number][] = [];
  samples.forEach((s, i) => {
    for (let j = 0; j < s.cells.chunkCount; j++) owner.push([i, j]);
  });
  return {
    nCells: sampleStart[samples.length],
    nGenes,
    nnz: samples.reduce((a, s) => a + s.cells.nnz, 0),
    chunkCount: owner.length,
    chunkStart(i) {
      if (i >= owner.length) return sampleStart[samples.length];
      const [s, j] = owner[i];
      return sampleStart[s] + samples[s].cells.chunkStart(j);
    },
    chunk(i) {
      const [s, j] = owner[i];
      const m = samples[s].cells.chunk(j);
      const remap = remaps[s];
      return remap ? remapChunk(m, remap, nGenes) : m;
    },
  };
}

/** A chunk with its gene indices mapped to the merged genes, sorted within each cell as mergeDatasets does. */
function remapChunk(m: CountMatrix, remap: Uint32Array, nGenes: number): CountMatrix {
  const nnz = m.indptr[m.nCells];
  const indices = new Uint32Array(nnz);
  const data = new Float32Array(nnz);
  for (let c = 0; c < m.nCells; c++) {
    const s0 = m.indptr[c];
    const s1 = m.indptr[c + 1];
    let monotone = true;
    for (let k = s0; k < s1; k++) {
      indices[k] = remap[m.indices[k]];
      data[k] = m.data[k];
      if (k > s0 && indices[k] < indices[k - 1]) monotone = false;
    }
    if (monotone) continue;
    // a stable sort by merged gene, as mergeDatasets
    const order = Array.from({ length: s1 - s0 }, (_, i) => s0 + i).sort(
      (a, b) => remap[m.indices[a]] - remap[m.indices[b]],
    );
    order.forEach((k, i) => {
      indices[s0 + i] = remap[m.indices[k]];
      data[s0 + i] = m.data[k];
    });
  }
  return { nGenes, nCells: m.nCells, indptr: m.indptr, indices, data };
}

/** Gene blocks over the merged genes: each sample's block of the genes it has, cells offset by the sample's start. */
function mergedGenes(
  samples: StreamedSample[],
  remaps: (Uint32Array | undefined)[],
  nGenes: number,
  sampleStart: number[],
): GeneBlocks {
  // sample gene of each merged gene (-1: the sample lacks it; a key met twice keeps its first gene)
  const inverse = samples.map((s, i) => {
    const inv = new Int32Array(nGenes).fill(-1);
    const remap = remaps[i];
    for (let g = 0; g < s.genes.nGenes; g++) {
      const t = remap ? remap[g] : g;
      if (inv[t] < 0) inv[t] = g;
    }
    return inv;
  });
  const geneNnz = new Float64Array(nGenes);
  samples.forEach((s, i) => {
    for (let t = 0; t < nGenes; t++) if (inverse[i][t] >= 0) geneNnz[t] += s.genes.geneNnz[inverse[i][t]];
  });
  const nCells = sampleStart[samples.length];
  const merged: GeneBlocks = {
    nCells,
    nGenes,
    geneNnz,
    genes(g0, g1) {
      const parts = samples.map((s, i) => sampleBlock(s.genes, inverse[i], g0, g1));
      const n = g1 - g0;
      const indptr = new Float64Array(n + 1);
      for (let j = 0; j < n; j++) {
        let size = 0;
        for (let i = 0; i < parts.length; i++) {
          const p = parts[i];
          const g = inverse[i][g0 + j];
          if (p && g >= 0) size += p.indptr[g - p.g0 + 1] - p.indptr[g - p.g0];
        }
        indptr[j + 1] = indptr[j] + size;
      }
      const indices = new Uint32Array(indptr[n]);
      const data = new Float32Array(indptr[n]);
      // sample by sample (a plain loop per gene; docs/benchmarks/store-passes.md): each sample's
      // values of gene j land after those of the samples before it
      const at = indptr.slice(0, n);
      for (let i = 0; i < parts.length; i++) {
        const p = parts[i];
        if (p) copySample(p, inverse[i], g0, sampleStart[i], at, { indices, data });
      }
      return { g0, g1, nCells, indptr, indices, data };
    },
  };
  sampleParts.set(merged, (g0, g1) =>
    samples.map((s, i) => ({
      block: sampleBlock(s.genes, inverse[i], g0, g1),
      inverse: inverse[i],
      offset: sampleStart[i],
    })),
  );
  return merged;
}

/**
 * One sample's part of merged genes [g0, g1): its block of the genes it has (undefined when none),
 * its gene of each merged gene (−1: absent) and its first merged cell.
 */
export interface SamplePart {
  block: GeneBlock | undefined;
  inverse: Int32Array;
  offset: number;
}

const sampleParts = new WeakMap<GeneBlocks, (g0: number, g1: number) => SamplePart[]>();

/**
 * For gene blocks of merged samples (mergeStreamed), the samples' parts of genes [g0, g1) — for a
 * view that selects from them directly instead of from the merged copy (stream/select.ts);
 * undefined for other gene blocks.
 */
export function mergedSampleParts(genes: GeneBlocks): ((g0: number, g1: number) => SamplePart[]) | undefined {
  return sampleParts.get(genes);
}

/**
 * Appends a sample's values of merged gene g0 + j at position `at[j]` (advanced past them) of
 * `indices`/`data`, its cells offset by `offset`.
 */
function copySample(
  p: GeneBlock,
  inverse: Int32Array,
  g0: number,
  offset: number,
  at: Float64Array,
  { indices, data }: { indices: Uint32Array; data: Float32Array },
): void {
  const n = at.length;
  const src = p.indices;
  const ptr = p.indptr;
  const pg0 = p.g0;
  for (let j = 0; j < n; j++) {
    const g = inverse[g0 + j];
    if (g < 0) continue;
    const k0 = ptr[g - pg0];
    const k1 = ptr[g - pg0 + 1];
    if (k1 === k0) continue;
    let o = at[j];
    data.set(p.data.subarray(k0, k1), o);
    if (offset === 0) indices.set(src.subarray(k0, k1), o);
    else for (let k = k0; k < k1; k++) indices[o++] = src[k] + offset;
    at[j] = at[j] + (k1 - k0);
  }
}

/** The block of a sample spanning its genes that map into [g0, g1), or undefined when it has none. */
function sampleBlock(genes: GeneBlocks, inverse: Int32Array, g0: number, g1: number): GeneBlock | undefined {
  let lo = Infinity;
  let hi = -1;
  for (let t = g0; t < g1; t++) {
    const g = inverse[t];
    if (g < 0) continue;
    if (g < lo) lo = g;
    if (g > hi) hi = g;
  }
  return hi < 0 ? undefined : genes.genes(lo, hi + 1);
}
