import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { writeH5adWithObs } from '../src/h5ad-with-obs';
import { MemorySink } from '../src/hdf5-write';
import { writeH5ad } from '../src/write-h5ad';

/**
 * Golden bytes of the HDF5 writer: the SHA-256 of an .h5ad written by writeH5ad and of its copy by
 * writeH5adWithObs, recorded with the writer before it was split into hdf5-encode.ts (objects,
 * messages) and hdf5-write.ts (the writer) — the split changed no byte. fflate's deflate (this
 * file does not load node-sources, which installs Node's zlib). A deliberate format change
 * updates the two hashes: the first was updated when integer arrays got the shuffle filter and
 * layers/counts its hard links to X's indices and indptr (the copy's bytes did not change), and
 * when X's data, X's indices and layers/counts' data were written with their chunks interleaved
 * (the same decoded datasets, checked with h5py against the file before; the copy's bytes again
 * unchanged).
 */
const nCells = 400;
const nGenes = 900;
const n = nCells * nGenes;
const counts = {
  nCells,
  nGenes,
  indptr: Float64Array.from({ length: nCells + 1 }, (_, c) => c * nGenes),
  indices: Uint32Array.from({ length: n }, (_, k) => k % nGenes),
  data: Float32Array.from({ length: n }, (_, k) => (k * 7919) % 13),
};
const barcodes = Array.from({ length: nCells }, (_, i) => `AAAC-${i}`);
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

describe('HDF5 writer golden bytes', () => {
  it('writes the same bytes as before the split', async () => {
    const bytes = await writeH5ad({
      counts,
      normalized: { ...counts, data: counts.data.map((x) => Math.log1p(x)) },
      genes: {
        ids: Array.from({ length: nGenes }, (_, g) => `ENSG${g}`),
        symbols: Array.from({ length: nGenes }, (_, g) => `G${g}`),
      },
      barcodes,
      obs: {
        cluster: { kind: 'categorical', values: barcodes.map((_, i) => String(i % 4)) },
        n_genes: { kind: 'numeric', values: Float64Array.from(barcodes, (_, i) => i) },
      },
      var: {
        highly_variable: { kind: 'boolean', values: Array.from({ length: nGenes }, (_, g) => g % 3 === 0) },
      },
      obsm: {
        X_umap: { dims: 2, values: Float32Array.from({ length: nCells * 2 }, (_, i) => i / 3) },
        X_pca: { dims: 800, values: Float32Array.from({ length: nCells * 800 }, (_, i) => Math.sin(i)) },
      },
      uns: { cellcloud: { engineVersion: 'x', params: '{"a":1}', nPcsUsed: 30, batchCorrection: false } },
    } as Parameters<typeof writeH5ad>[0]);
    const sink = new MemorySink();
    const obs = { lv: { kind: 'categorical' as const, values: barcodes.map((_, i) => `L${i % 3}`) } };
    await writeH5adWithObs(bytes, obs, sink);
    expect(bytes.length).toBe(1228210);
    expect(sha(bytes)).toBe('59aa8662513d86fd125af169a87cc752bf865da2895f06475ac9c229c04fedf4');
    expect(sha(sink.bytes())).toBe('d23d3e623671a4c7f284bee7ab90466c2eefca4066e41fb58d41607268e65110');
  });
});
