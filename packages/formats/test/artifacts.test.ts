import { artifactManifest } from '@cellcloud/contracts/artifacts';
import { describe, expect, it } from 'vitest';
import {
  decodeCategoricalColumn,
  decodeEmbedding,
  decodeFloat32,
  decodeGeneChunk,
  decodeGeneColours,
  decodeGeneIndex,
  denseGeneValues,
  geneByteRange,
  writeArtifacts,
  FormatError,
} from '../src/index';
import { smallDataset } from './fixtures';
import { MemorySink } from '../src/hdf5-write';
import { compactChunkLength, encodeCompactChunk, geneChunks, writeGeneChunks } from '../src/write-artifacts';
import { geneBlocksOf } from '../src/cell-chunks';

function memorySink() {
  const files = new Map<string, Uint8Array>();
  return { files, sink: { write: async (p: string, b: Uint8Array) => void files.set(p, b.slice()) } };
}

describe('explorer artifacts', () => {
  const ds = smallDataset();
  const n = ds.counts.nCells;
  const cluster = Array.from({ length: n }, (_, i) => String([10, 2, 1][i % 3]));
  const umap = Float32Array.from({ length: n * 2 }, (_, i) => i * 0.25);

  it.each([1, 2] as const)(
    'writes the manifest layout (format %i) and decodes one gene from its byte range',
    async (version) => {
      const { files, sink } = memorySink();
      const manifest = await writeArtifacts(
        {
          formatVersion: version,
          engineVersion: 'test',
          species: 'Homo sapiens',
          genes: ds.genes,
          nCells: n,
          layers: { counts: ds.counts },
          embeddings: { umap: { dims: 2, values: umap } },
          obs: {
            cluster: { kind: 'categorical', values: cluster },
            'n genes/cell': { kind: 'numeric', values: Float64Array.from({ length: n }, (_, i) => i - 3) },
          },
          markers: {
            cluster: [
              {
                cluster: '1',
                gene: 'GENE1',
                avgExpr: 1,
                log2fc: 2,
                pct1: 0.5,
                pct2: 0.1,
                zscore: 3,
                pval: 1e-5,
                padj: 1e-3,
              },
            ],
          },
          qc: { thresholds: { minGenes: 200 } },
          h5ad: 'analysis.h5ad',
        },
        sink,
      );
      expect(
        artifactManifest.parse(JSON.parse(new TextDecoder().decode(files.get('manifest.json')!))),
      ).toEqual(manifest);
      expect(manifest.formatVersion).toBe(version);
      expect([...files.keys()].sort()).toEqual([
        version === 1 ? 'embeddings/umap.f32' : 'embeddings/umap.q24',
        'expr/counts.bin',
        ...(version === 2 ? ['expr/counts.clen'] : []),
        'expr/counts.idx',
        'genes.json',
        'manifest.json',
        'markers/cluster.json',
        'obs/cluster.u16',
        'obs/n_genes_cell.f32',
        'qc.json',
      ]);
      const cat = manifest.obs.find((o) => o.key === 'cluster');
      expect(cat).toMatchObject({ kind: 'categorical', dtype: 'u16', labels: ['1', '2', '10'] });
      if (cat?.kind !== 'categorical') throw new Error('categorical expected');
      expect(decodeCategoricalColumn(files.get(cat.file)!, cat.dtype, cat.labels)).toEqual(cluster);
      expect(manifest.obs.find((o) => o.key === 'n genes/cell')).toMatchObject({
        kind: 'numeric',
        min: -3,
        max: n - 4,
      });
      expect(Array.from(decodeFloat32(files.get('obs/n_genes_cell.f32')!))[5]).toBe(2);
      const emb = manifest.embeddings[0]!;
      const [x, y] = decodeEmbedding(files.get(emb.file)!, 2, emb.quantised);
      // format 2: 24 bits over the bounding box, error ≤ range / (2 · (2^24 − 1))
      const tol = version === 1 ? 0 : (umap[umap.length - 1]! - umap[0]!) / (2 * 0xffffff);
      for (let i = 0; i < n; i++) {
        // plus the float32 rounding of the decoded coordinate
        expect(Math.abs(x![i]! - umap[2 * i]!)).toBeLessThanOrEqual(tol + Math.abs(umap[2 * i]!) * 2 ** -23);
        expect(Math.abs(y![i]! - umap[2 * i + 1]!)).toBeLessThanOrEqual(
          tol + Math.abs(umap[2 * i + 1]!) * 2 ** -23,
        );
      }
      expect(JSON.parse(new TextDecoder().decode(files.get('genes.json')!))).toEqual({
        ids: ds.genes.ids,
        symbols: ds.genes.symbols,
      });

      const index = decodeGeneIndex(files.get('expr/counts.idx')!);
      const bin = files.get('expr/counts.bin')!;
      for (const g of [0, 7, ds.counts.nGenes - 1]) {
        const { offset, length } = geneByteRange(index, g);
        const got = denseGeneValues(decodeGeneChunk(bin.subarray(offset, offset + length)), n);
        const want = new Float32Array(n);
        for (let j = 0; j < n; j++)
          for (let k = ds.counts.indptr[j]!; k < ds.counts.indptr[j + 1]!; k++)
            if (ds.counts.indices[k] === g) want[j] = ds.counts.data[k]!;
        expect(Array.from(got)).toEqual(Array.from(want));
        if (version === 2) {
          // the colour prefix: same cells, values within max / 131070, exact max
          const clen = new Uint32Array(files.get('expr/counts.clen')!.slice().buffer);
          const colours = decodeGeneColours(bin.subarray(offset, offset + clen[g]!));
          const max = Math.max(0, ...want);
          expect(colours.max).toBe(max);
          const dense = denseGeneValues(colours, n);
          for (let j = 0; j < n; j++)
            expect(Math.abs(dense[j]! - want[j]!)).toBeLessThanOrEqual(max / 131070 + 1e-6);
          expect(clen[g]).toBeLessThan(length);
        }
      }
      expect(index[index.length - 2]! + index[index.length - 1]!).toBe(bin.length);
    },
  );

  it('refuses embeddings that are not 2-D or 3-D and columns of the wrong length', async () => {
    const { sink } = memorySink();
    const base = { engineVersion: 't', species: 'x', genes: ds.genes, nCells: n, layers: {} };
    await expect(
      writeArtifacts({ ...base, embeddings: { pca: { dims: 50, values: new Float32Array(n * 50) } } }, sink),
    ).rejects.toBeInstanceOf(FormatError);
    await expect(
      writeArtifacts({ ...base, obs: { a: { kind: 'numeric', values: new Float64Array(1) } } }, sink),
    ).rejects.toThrow(/obs column "a"/);
  });
});

describe('streamed gene-major chunks', () => {
  it('writes the same bytes block by block into a positional file as geneChunks builds in memory', async () => {
    const ds = smallDataset();
    const whole = geneChunks(ds.counts);
    const file = new MemorySink();
    // tiny blocks: every few genes is its own write at its own offset
    const index = await writeGeneChunks(ds.counts, file, 5);
    expect(Array.from(index)).toEqual(Array.from(whole.index));
    expect(Array.from(file.bytes())).toEqual(Array.from(whole.bin));
  });
});

describe('compact expression layers (format 2)', () => {
  const ds = smallDataset();
  const n = ds.counts.nCells;
  const input = { engineVersion: 't', species: 'x', genes: ds.genes, nCells: n };
  const expr = (files: Map<string, Uint8Array>) =>
    ['expr/counts.bin', 'expr/counts.idx', 'expr/counts.clen', 'expr/normalized.bin'].map((f) =>
      Array.from(files.get(f)!),
    );
  // normalized values of the counts' layout, as the engine hands them (non-integer values)
  const normalized = { ...ds.counts, data: ds.counts.data.map((v) => Math.log1p(v * 1.7)) };

  it('writes the same files in memory, block by block into positional files, and from gene blocks', async () => {
    const whole = memorySink();
    await writeArtifacts({ ...input, layers: { counts: ds.counts, normalized } }, whole.sink);
    const positional = memorySink();
    const sinks = new Map<string, MemorySink>();
    await writeArtifacts(
      { ...input, layers: { counts: ds.counts, normalized } },
      {
        ...positional.sink,
        async open(p: string) {
          const f = new MemorySink();
          sinks.set(p, f);
          return {
            write: (b: Uint8Array, at: number) => f.write(b, at),
            close: async () => void positional.files.set(p, f.bytes()),
          };
        },
      },
    );
    const blocks = memorySink();
    await writeArtifacts(
      {
        ...input,
        layers: {},
        geneLayers: { counts: geneBlocksOf(ds.counts), normalized: geneBlocksOf(normalized) },
      },
      blocks.sink,
    );
    expect(expr(positional.files)).toEqual(expr(whole.files));
    expect(expr(blocks.files)).toEqual(expr(whole.files));
    // per gene a 16-byte header and ≤ 3 bytes of padding; per non-zero 7 bytes (1-byte gaps here),
    // of which the colour prefix holds 3
    const nnz = ds.counts.indptr[n]!;
    const g = ds.counts.nGenes;
    expect(whole.files.get('expr/counts.bin')!.byteLength).toBeLessThanOrEqual(19 * g + 7 * nnz);
    const clen = new Uint32Array(whole.files.get('expr/counts.clen')!.slice().buffer);
    expect(clen.reduce((s, x) => s + x, 0)).toBeLessThanOrEqual(17 * g + 3 * nnz);
  });

  it('encodes a chunk to the same bytes at aligned offsets (typed arrays) and odd ones (DataView)', () => {
    // gaps of 1 to 5 varint bytes, an odd number of cell bytes, values that round at .5 levels
    const cells = [0, 3, 200, 20_000, 3_000_000, 400_000_000, 4_000_000_000];
    const raw = [1, 0.5, 2.75, 1e-9, 7 / 3, 65535.5, 3.25];
    const { length, cellBytes } = compactChunkLength(cells);
    expect(cellBytes % 2).toBe(1);
    const encoded = (values: ArrayLike<number>, at: number) => {
      const out = new Uint8Array(at + length).fill(0xee);
      const colourLength = encodeCompactChunk(Uint32Array.from(cells), values, out, at, cellBytes);
      return { colourLength, bytes: Array.from(out.subarray(at)) };
    };
    const aligned = encoded(Float32Array.from(raw), 4);
    for (const values of [raw, Float64Array.from(raw), Float32Array.from(raw)])
      for (const at of [0, 1, 2, 3, 8]) expect(encoded(values, at)).toEqual(aligned);
    // levels clamped: a negative value, and a maximum below float32's normal range (fround(max)
    // is far below max, so max · scale is above the top level)
    for (const values of [
      raw.map((v, k) => (k === 2 ? -v : v)),
      raw.map((v) => v * 1.6e-49),
      raw.map((v) => v * 1e-50),
    ])
      for (const at of [1, 4]) {
        const { bytes } = encoded(Float64Array.from(values), at);
        expect(bytes).toEqual(encoded(values, at === 1 ? 4 : 1).bytes);
        const levels = new Uint16Array(Uint8Array.from(bytes.slice(16 + cellBytes + 1)).buffer, 0, 7);
        expect(Math.max(...levels)).toBe(65535);
      }
    expect(aligned.bytes.slice(-4 * raw.length)).toEqual(
      Array.from(new Uint8Array(Float32Array.from(raw).buffer)),
    );
  });
});
