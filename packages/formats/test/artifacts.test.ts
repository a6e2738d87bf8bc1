import { artifactManifest } from '@cellcloud/contracts/artifacts';
import { describe, expect, it } from 'vitest';
import {
  decodeCategoricalColumn,
  decodeEmbedding,
  decodeFloat32,
  decodeGeneChunk,
  decodeGeneIndex,
  denseGeneValues,
  geneByteRange,
  writeArtifacts,
  FormatError,
} from '../src/index';
import { smallDataset } from './fixtures';
import { MemorySink } from '../src/hdf5-write';
import { geneChunks, writeGeneChunks } from '../src/write-artifacts';

function memorySink() {
  const files = new Map<string, Uint8Array>();
  return { files, sink: { write: async (p: string, b: Uint8Array) => void files.set(p, b.slice()) } };
}

describe('explorer artifacts', () => {
  const ds = smallDataset();
  const n = ds.counts.nCells;
  const cluster = Array.from({ length: n }, (_, i) => String([10, 2, 1][i % 3]));
  const umap = Float32Array.from({ length: n * 2 }, (_, i) => i * 0.25);

  it('writes the manifest layout and decodes one gene from its byte range', async () => {
    const { files, sink } = memorySink();
    const manifest = await writeArtifacts(
      {
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
    expect(artifactManifest.parse(JSON.parse(new TextDecoder().decode(files.get('manifest.json')!)))).toEqual(
      manifest,
    );
    expect([...files.keys()].sort()).toEqual([
      'embeddings/umap.f32',
      'expr/counts.bin',
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
    const [x, y] = decodeEmbedding(files.get('embeddings/umap.f32')!, 2);
    expect(x![3]).toBe(1.5);
    expect(y![3]).toBe(1.75);
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
    }
    expect(index[index.length - 2]! + index[index.length - 1]!).toBe(bin.length);
  });

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
