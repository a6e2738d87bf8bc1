import type { CellColumn, CountMatrix, Dataset } from '@cellcloud/formats/matrix';
import { Step } from './step';

export interface NamedDataset {
  name: string;
  dataset: Dataset;
}

/** All samples merged (outer join on gene ids), with the sample of each cell. */
export interface MergedInput {
  counts: CountMatrix;
  geneIds: string[];
  geneSymbols: string[];
  /** `<sample>_<barcode>` (docs/methods/pipeline.md#merging-samples), unique across samples. */
  barcodes: string[];
  sampleOfCell: Int32Array;
  sampleNames: string[];
  /**
   * Cell metadata columns of the samples (h5ad obs, metadata files), union over samples: a sample
   * without the column gets "unknown" (categorical) or NaN (numeric); a column that is numeric in
   * one sample and categorical in another becomes categorical.
   */
  columns: Record<string, CellColumn>;
  /** Embeddings (h5ad obsm) present in every sample with the same dimensions, rows in merged order. */
  embeddings: Record<string, { dims: number; values: Float32Array }>;
}

/**
 * Merges the samples into one matrix. `releaseSamples`: each sample's count matrix is replaced by
 * an empty one as soon as it is copied (the caller hands its matrices over; memory is freed as
 * the merge proceeds instead of holding every sample and the merged copy to the end).
 */
export function mergeDatasets(samples: NamedDataset[], releaseSamples = false): MergedInput {
  const { geneIndex, geneIds, geneSymbols, keys } = unionGenes(samples.map((s) => s.dataset.genes));
  let nCells = 0;
  let nnz = 0;
  for (const { dataset } of samples) {
    nCells += dataset.counts.nCells;
    nnz += dataset.counts.indices.length;
  }
  const indptr = new Float64Array(nCells + 1);
  // shared: the normalized values reuse these indices and worker threads read them (markers)
  const indices = new Uint32Array(new SharedArrayBuffer(nnz * 4));
  const data = new Float32Array(nnz);
  const sampleOfCell = new Int32Array(nCells);
  const barcodes: string[] = [];
  let c0 = 0;
  let p = 0;
  samples.forEach(({ name, dataset }, s) => {
    const m = dataset.counts;
    const same = keys[s] === keys[0] || keys[s].every((id, g) => geneIndex.get(id) === g);
    const remap = same ? undefined : Uint32Array.from(keys[s], (id) => geneIndex.get(id) ?? 0);
    for (let c = 0; c < m.nCells; c++) {
      const s0 = m.indptr[c];
      const s1 = m.indptr[c + 1];
      if (!remap) {
        indices.set(m.indices.subarray(s0, s1), p);
        data.set(m.data.subarray(s0, s1), p);
      } else {
        const order = Array.from({ length: s1 - s0 }, (_, i) => s0 + i).sort(
          (a, b) => remap[m.indices[a]] - remap[m.indices[b]],
        );
        order.forEach((k, i) => {
          indices[p + i] = remap[m.indices[k]];
          data[p + i] = m.data[k];
        });
      }
      p += s1 - s0;
      indptr[c0 + c + 1] = p;
      sampleOfCell[c0 + c] = s;
      barcodes.push(samples.length > 1 ? `${name}_${dataset.cells.barcodes[c]}` : dataset.cells.barcodes[c]);
    }
    c0 += m.nCells;
    if (releaseSamples) {
      // Free the copied sample's memory now: dropped references are only reclaimed by a full
      // garbage collection, which nothing in this loop triggers — at 10 × 50k cells (741M
      // non-zeros) every sample and the merged copy were held together (16 B per non-zero).
      const later = new Set(samples.slice(s + 1).flatMap(({ dataset: d }) => countBuffers(d.counts)));
      for (const view of [m.indptr, m.indices, m.data]) detachUnshared(view, later);
      dataset.counts = {
        nGenes: m.nGenes,
        nCells: 0,
        indptr: new Float64Array(1),
        indices: new Uint32Array(0),
        data: new Float32Array(0),
      };
    }
  });
  return {
    counts: { nGenes: geneIds.length, nCells, indptr, indices, data },
    geneIds,
    geneSymbols,
    barcodes,
    sampleOfCell,
    sampleNames: samples.map((s) => s.name),
    columns: commonColumns(samples),
    embeddings: commonEmbeddings(samples),
  };
}

const countBuffers = (m: CountMatrix): ArrayBufferLike[] => [
  m.indptr.buffer,
  m.indices.buffer,
  m.data.buffer,
];

/**
 * Releases a handed-over array's memory at once (ArrayBuffer.prototype.transfer(0) detaches it and
 * frees its store) when it spans its whole ArrayBuffer and no later sample uses that buffer.
 */
function detachUnshared(view: ArrayBufferView, later: Set<ArrayBufferLike>): void {
  const buffer = view.buffer as ArrayBuffer & { transfer?: (length: number) => ArrayBuffer };
  if (!(buffer instanceof ArrayBuffer) || typeof buffer.transfer !== 'function') return;
  if (view.byteOffset !== 0 || view.byteLength !== buffer.byteLength || later.has(buffer)) return;
  try {
    buffer.transfer(0);
  } catch {
    // a non-detachable buffer (e.g. WebAssembly memory) is left to the garbage collector
  }
}

/** The gene ids and symbols of one sample (a symbol may be missing: the id stands in). */
export interface GeneList {
  ids: string[];
  symbols: string[];
}

/**
 * The merged genes of the samples (outer join in sample order, first sample's symbol kept): the
 * merge key of each sample's genes (geneKeys) and the merged index of each key. Shared by
 * mergeDatasets and the streamed merge (stream/merge.ts).
 */
export function unionGenes(samples: GeneList[]): {
  geneIndex: Map<string, number>;
  geneIds: string[];
  geneSymbols: string[];
  keys: string[][];
} {
  const geneIndex = new Map<string, number>();
  const geneIds: string[] = [];
  const geneSymbols: string[] = [];
  const keys = geneKeys(samples);
  samples.forEach((genes, s) => {
    keys[s].forEach((key, g) => {
      if (!geneIndex.has(key)) {
        geneIndex.set(key, geneIds.length);
        geneIds.push(genes.ids[g]);
        geneSymbols.push(genes.symbols[g] ?? genes.ids[g]);
      }
    });
  });
  return { geneIndex, geneIds, geneSymbols, keys };
}

const ENSEMBL_ID = /^ENS[A-Z]*G\d{11}(\.\d+)?$/;

/**
 * The key genes are merged on: their ids, unless the samples mix Ensembl ids with symbol-only ids
 * (a public database dataset, keyed by Ensembl ids, integrated with a user's symbol-only 10x
 * upload, issue 20) — then every sample is merged on its gene symbols.
 */
function geneKeys(samples: GeneList[]): string[][] {
  const kinds = samples.map((genes) => ENSEMBL_ID.test(genes.ids[0] ?? ''));
  const mixed = kinds.some((k) => k) && kinds.some((k) => !k);
  if (!mixed) return samples.map((genes) => genes.ids);
  return samples.map((genes) => {
    // a symbol met twice in one sample keeps its second gene apart (one row per key and sample)
    const seen = new Set<string>();
    return genes.ids.map((id, g) => {
      const sym = genes.symbols[g] ?? id;
      const key = seen.has(sym) ? `${sym}\u0000${id}` : sym;
      seen.add(sym);
      return key;
    });
  });
}

export function commonEmbeddings(
  samples: NamedDataset[],
): Record<string, { dims: number; values: Float32Array }> {
  const out: Record<string, { dims: number; values: Float32Array }> = {};
  const first = samples[0].dataset.embeddings ?? {};
  for (const key of Object.keys(first)) {
    const dims = first[key].dims;
    if (!samples.every((s) => s.dataset.embeddings?.[key]?.dims === dims)) continue;
    const parts = samples.map((s) => s.dataset.embeddings[key].values);
    const values = new Float32Array(parts.reduce((a, b) => a + b.length, 0));
    let o = 0;
    for (const part of parts) {
      values.set(part, o);
      o += part.length;
    }
    out[key] = { dims, values };
  }
  return out;
}

export function commonColumns(samples: NamedDataset[]): Record<string, CellColumn> {
  const keys = [...new Set(samples.flatMap((s) => Object.keys(s.dataset.cells.columns)))];
  const out: Record<string, CellColumn> = {};
  for (const key of keys) {
    const cols = samples.map((s) => s.dataset.cells.columns[key]);
    const numeric = cols.every((c) => !c || c.kind === 'numeric');
    const sizes = samples.map((s) => s.dataset.cells.barcodes.length);
    if (numeric) {
      const values = new Float64Array(sizes.reduce((a, b) => a + b, 0)).fill(NaN);
      let o = 0;
      cols.forEach((c, i) => {
        if (c) values.set(c.values as Float64Array, o);
        o += sizes[i];
      });
      out[key] = { kind: 'numeric', values };
    } else {
      const values: string[] = [];
      cols.forEach((c, i) => {
        if (!c) for (let k = 0; k < sizes[i]; k++) values.push('unknown');
        else if (c.kind === 'categorical') for (const v of c.values) values.push(v);
        else for (const v of c.values) values.push(Number.isNaN(v) ? 'unknown' : String(v));
      });
      out[key] = { kind: 'categorical', values };
    }
  }
  return out;
}

/** Holds the samples; `setInputs` marks the step changed so everything downstream recomputes. */
export class InputsStep extends Step<Record<string, never>, MergedInput> {
  readonly name = 'inputs' as const;
  private samples: NamedDataset[] = [];

  constructor() {
    super([]);
  }

  setInputs(samples: NamedDataset[]): void {
    this.samples = samples;
    this.free();
  }

  static defaults(): Record<string, never> {
    return {};
  }

  /** One-shot runs: the samples are let go once merged (and their matrices emptied when `releaseSamples`). */
  inPlace = false;
  releaseSamples = false;

  protected run(): MergedInput {
    const merged = mergeDatasets(this.samples, this.releaseSamples);
    if (this.inPlace) this.samples = [];
    return merged;
  }

  /** Restored from a checkpoint: a one-shot run lets the samples go as if they had been merged. */
  protected override restoreResult(data: unknown): MergedInput {
    if (this.inPlace) this.samples = [];
    return data as MergedInput;
  }

  /** Drops the merged counts once the filter step has consumed them in place (one-shot runs). */
  releaseCounts(): void {
    if (this.result)
      this.result.counts = {
        nGenes: this.result.counts.nGenes,
        nCells: 0,
        indptr: new Float64Array(1),
        indices: new Uint32Array(0),
        data: new Float32Array(0),
      };
  }
}
