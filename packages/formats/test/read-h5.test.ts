import { sharedData } from '@cellcloud/testkit';
import h5wasm from 'h5wasm';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bytesSource, read10xH5Bytes, readDataset, readH5adBytes, writeH5ad } from '../src/index';
import { folderBundle, pathBundle } from '../src/node-sources';
import { expectCode } from './errors';
import { sameCounts, smallDataset } from './fixtures';

const bytes = (p: string) => new Uint8Array(readFileSync(p));

describe('HDF5 readers on the shared data', () => {
  const pbmcH5ad = sharedData('pbmc3k/pbmc3k.h5ad');
  const pbmcMtx = sharedData('pbmc3k/10x/matrix.mtx.gz');
  it.skipIf(!pbmcH5ad || !pbmcMtx)(
    'pbmc3k.h5ad holds the same counts as the pbmc3k MTX, plus obs and obsm',
    async () => {
      const h = await readDataset(await pathBundle(pbmcH5ad!));
      const m = await readDataset(await folderBundle(path.dirname(pbmcMtx!)));
      expect(h.format).toBe('h5ad');
      expect(h.counts.nGenes).toBe(13714);
      expect(h.counts.nCells).toBe(2638);
      expect(sameCounts(h.counts, m.counts)).toBe(true);
      expect(h.genes.symbols).toEqual(m.genes.symbols);
      expect(h.cells.barcodes).toEqual(m.cells.barcodes);
      const cluster = h.cells.columns['seurat_cluster'];
      expect(cluster?.kind === 'categorical' && new Set(cluster.values).size).toBe(9);
      const label = h.cells.columns['label'];
      expect(label?.kind === 'categorical' && label.values.filter((v) => v === 'B').length).toBe(344);
      const nCount = h.cells.columns['nCount_RNA'];
      expect(nCount?.kind).toBe('numeric');
      let cell0 = 0;
      for (let k = h.counts.indptr[0]!; k < h.counts.indptr[1]!; k++) cell0 += h.counts.data[k]!;
      expect(nCount!.values[0]).toBe(cell0);
      expect(h.embeddings['X_umap']?.dims).toBe(2);
      expect(h.embeddings['X_umap']?.values.length).toBe(2638 * 2);
    },
  );

  const reduced = sharedData('scanpy_bundled/10x_pbmc68k_reduced.h5ad');
  it.skipIf(!reduced)(
    'refuses the scaled pbmc68k_reduced.h5ad (raw.X is log-normalized, X scaled)',
    async () => {
      const e = await expectCode(
        readH5adBytes(bytes(reduced!), '10x_pbmc68k_reduced.h5ad'),
        'h5ad.normalized_only',
      );
      expect(String(e.params['detail'])).toMatch(/raw\.X has non-integer.*X has negative/);
      expect(e.message).toContain('no raw counts found');
    },
  );

  for (const [h5, dir, genes, cells] of [
    ['scanpy_bundled/10x_v3_small/filtered_feature_bc_matrix.h5', 'scanpy_bundled/10x_v3_small', 507, 1107],
    ['scanpy_bundled/10x_v2_chr21/filtered_gene_bc_matrices_h5.h5', 'scanpy_bundled/10x_v2_chr21', 343, 12],
  ] as const) {
    const file = sharedData(h5);
    it.skipIf(!file)(`${path.basename(h5)} equals the MTX of the same folder`, async () => {
      const fromH5 = await read10xH5Bytes(bytes(file!), path.basename(h5));
      const fromMtx = await readDataset(
        await folderBundle(path.dirname(file!)).then((b) => ({
          ...b,
          entries: b.entries.filter((e) => !e.name.endsWith('.h5')),
        })),
      );
      expect(fromH5.format).toBe('10x-h5');
      expect(fromH5.counts.nGenes).toBe(genes);
      expect(fromH5.counts.nCells).toBe(cells);
      expect(sameCounts(fromH5.counts, fromMtx.counts)).toBe(true);
      expect(fromH5.genes.ids).toEqual(fromMtx.genes.ids);
      expect(fromH5.genes.symbols).toEqual(fromMtx.genes.symbols);
      expect(fromH5.cells.barcodes).toEqual(fromMtx.cells.barcodes);
      expect(dir).toBeTruthy();
    });
  }
});

/** Hand-written h5ad variants the writer does not produce: dense X, CSC X, old-style categories. */
async function variant(kind: 'dense' | 'csc', ds = smallDataset()): Promise<Uint8Array> {
  const M = await h5wasm.ready;
  const p = `/variant-${kind}.h5ad`;
  const f = new h5wasm.File(p, 'w');
  const { nGenes, nCells, indptr, indices, data } = ds.counts;
  if (kind === 'dense') {
    const dense = new Float32Array(nCells * nGenes);
    for (let j = 0; j < nCells; j++)
      for (let k = indptr[j]!; k < indptr[j + 1]!; k++) dense[j * nGenes + indices[k]!] = data[k]!;
    f.create_dataset({ name: 'X', data: dense, shape: [nCells, nGenes] });
  } else {
    const byGene: number[][] = Array.from({ length: nGenes }, () => []);
    const vals: number[][] = Array.from({ length: nGenes }, () => []);
    for (let j = 0; j < nCells; j++) {
      for (let k = indptr[j]!; k < indptr[j + 1]!; k++) {
        byGene[indices[k]!]!.push(j);
        vals[indices[k]!]!.push(data[k]!);
      }
    }
    const g = f.create_group('X');
    g.create_attribute('encoding-type', 'csc_matrix', null, 'S');
    g.create_attribute('shape', new Int32Array([nCells, nGenes]));
    const ptr = [0];
    for (const x of byGene) ptr.push(ptr[ptr.length - 1]! + x.length);
    g.create_dataset({ name: 'indptr', data: Int32Array.from(ptr) });
    g.create_dataset({ name: 'indices', data: Int32Array.from(byGene.flat()) });
    g.create_dataset({ name: 'data', data: Float32Array.from(vals.flat()) });
  }
  const obs = f.create_group('obs');
  obs.create_attribute('_index', 'index', null, 'S');
  obs.create_attribute('column-order', ['group'], null, 'S');
  obs.create_dataset({ name: 'index', data: ds.cells.barcodes, dtype: 'S' });
  obs.create_dataset({ name: 'group', data: Int8Array.from(ds.cells.barcodes, (_, i) => i % 2) });
  obs.create_group('__categories').create_dataset({ name: 'group', data: ['left', 'right'], dtype: 'S' });
  const v = f.create_group('var');
  v.create_attribute('_index', 'index', null, 'S');
  v.create_dataset({ name: 'index', data: ds.genes.ids, dtype: 'S' });
  f.close();
  const out = M.FS.readFile(p);
  M.FS.unlink(p);
  return out;
}

describe('h5ad variants', () => {
  for (const kind of ['dense', 'csc'] as const) {
    it(`reads X stored ${kind} and old-style __categories`, async () => {
      const ds = smallDataset();
      const back = await readH5adBytes(await variant(kind, ds), `${kind}.h5ad`);
      expect(sameCounts(back.counts, ds.counts)).toBe(true);
      expect(back.genes.ids).toEqual(ds.genes.ids);
      const g = back.cells.columns['group'];
      expect(g?.kind === 'categorical' && g.values.slice(0, 3)).toEqual(['left', 'right', 'left']);
    });
  }

  it('refuses normalized-only data and accepts it with allowNonInteger', async () => {
    const ds = smallDataset();
    const norm = { ...ds.counts, data: ds.counts.data.map((x) => Math.log1p(x)) };
    const file = await writeH5ad({ counts: norm, genes: ds.genes, barcodes: ds.cells.barcodes });
    const e = await expectCode(readH5adBytes(file, 'norm.h5ad'), 'h5ad.normalized_only');
    expect(String(e.params['detail'])).toContain('X has non-integer values');
    const loose = await readH5adBytes(file, 'norm.h5ad', { allowNonInteger: true });
    expect(loose.warnings.join(' ')).toContain('non-integer');
  });

  it('rejects bytes that are not HDF5', async () => {
    await expectCode(
      readH5adBytes(new TextEncoder().encode('not an hdf5 file at all'), 'x.h5ad'),
      'h5.open_failed',
    );
  });
});

/** A 10x HDF5 written by hand in the CellRanger v3 (matrix/features) or v2 (<genome>/genes) layout. */
async function tenxH5(layout: 'v2' | 'v3', ds = smallDataset()): Promise<Uint8Array> {
  const M = await h5wasm.ready;
  const p = `/tenx-${layout}.h5`;
  const f = new h5wasm.File(p, 'w');
  const g = f.create_group(layout === 'v3' ? 'matrix' : 'GRCh38');
  const { nGenes, nCells, indptr, indices, data } = ds.counts;
  g.create_dataset({ name: 'data', data: Int32Array.from(data) });
  g.create_dataset({ name: 'indices', data: BigInt64Array.from(indices, (x) => BigInt(x)) });
  g.create_dataset({ name: 'indptr', data: BigInt64Array.from(indptr, (x) => BigInt(x)) });
  g.create_dataset({ name: 'shape', data: new Int32Array([nGenes, nCells]) });
  g.create_dataset({ name: 'barcodes', data: ds.cells.barcodes, dtype: 'A18' });
  if (layout === 'v3') {
    const feat = g.create_group('features');
    feat.create_dataset({ name: 'id', data: ds.genes.ids, dtype: 'A16' });
    feat.create_dataset({ name: 'name', data: ds.genes.symbols, dtype: 'A8' });
    feat.create_dataset({
      name: 'feature_type',
      data: ds.genes.ids.map(() => 'Gene Expression'),
      dtype: 'A15',
    });
  } else {
    g.create_dataset({ name: 'genes', data: ds.genes.ids, dtype: 'A16' });
    g.create_dataset({ name: 'gene_names', data: ds.genes.symbols, dtype: 'A8' });
  }
  f.close();
  const out = M.FS.readFile(p);
  M.FS.unlink(p);
  return out;
}

describe('10x HDF5 round trip', () => {
  for (const layout of ['v2', 'v3'] as const) {
    it(`reads a ${layout} file it wrote, through readDataset`, async () => {
      const ds = smallDataset();
      const back = await readDataset({
        name: 'u',
        entries: [bytesSource(`filtered_${layout}.h5`, await tenxH5(layout, ds))],
      });
      expect(back.format).toBe('10x-h5');
      expect(sameCounts(back.counts, ds.counts)).toBe(true);
      expect(back.genes.ids).toEqual(ds.genes.ids);
      expect(back.genes.symbols).toEqual(ds.genes.symbols);
      expect(back.cells.barcodes).toEqual(ds.cells.barcodes);
    });
  }

  it('reports a missing dataset by its path', async () => {
    const M = await h5wasm.ready;
    const f = new h5wasm.File('/broken.h5', 'w');
    const feat = f.create_group('matrix').create_group('features');
    feat.create_dataset({ name: 'id', data: ['a'], dtype: 'S' });
    feat.create_dataset({ name: 'name', data: ['a'], dtype: 'S' });
    f.close();
    const bytes = M.FS.readFile('/broken.h5');
    const e = await expectCode(read10xH5Bytes(bytes, 'broken.h5'), 'h5.missing_field');
    expect(e.params['field']).toBe('/matrix/barcodes');
  });
});
