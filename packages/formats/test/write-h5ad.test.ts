import { sharedData } from '@cellcloud/testkit';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleOf, bytesSource, type CountMatrix, readDataset, readH5adBytes, writeH5ad } from '../src/index';
import { h5Structure } from './h5-structure';
import { smallDataset } from './fixtures';

function lognorm(m: CountMatrix): CountMatrix {
  const data = new Float32Array(m.data.length);
  for (let j = 0; j < m.nCells; j++) {
    let s = 0;
    for (let k = m.indptr[j]!; k < m.indptr[j + 1]!; k++) s += m.data[k]!;
    for (let k = m.indptr[j]!; k < m.indptr[j + 1]!; k++) data[k] = Math.log1p((m.data[k]! / s) * 1e4);
  }
  return { ...m, data };
}

describe('h5ad writer', () => {
  it('round-trips counts, obs, var, obsm and uns through our reader', async () => {
    const ds = smallDataset();
    const cluster = ds.cells.barcodes.map((_, i) => String(i % 3));
    const bytes = await writeH5ad({
      counts: ds.counts,
      genes: ds.genes,
      barcodes: ds.cells.barcodes,
      normalized: lognorm(ds.counts),
      obs: {
        cluster: { kind: 'categorical', values: cluster },
        n_genes: { kind: 'numeric', values: Float64Array.from(ds.cells.barcodes, (_, i) => i * 1.5) },
      },
      var: { highly_variable: { kind: 'boolean', values: ds.genes.ids.map((_, g) => g % 2 === 0) } },
      obsm: {
        X_umap: { dims: 2, values: Float32Array.from({ length: ds.counts.nCells * 2 }, (_, i) => i / 7) },
      },
      uns: { params: { resolution: 0.8, method: 'leiden', seeds: [1, 2, 3] } },
    });
    const back = await readH5adBytes(bytes, 'written.h5ad');
    expect(back.counts.nCells).toBe(ds.counts.nCells);
    expect(back.counts.nGenes).toBe(ds.counts.nGenes);
    expect(Array.from(back.counts.indptr)).toEqual(Array.from(ds.counts.indptr));
    expect(Array.from(back.counts.indices)).toEqual(Array.from(ds.counts.indices));
    expect(Array.from(back.counts.data)).toEqual(Array.from(ds.counts.data));
    expect(back.genes.ids).toEqual(ds.genes.ids);
    expect(back.genes.symbols).toEqual(ds.genes.symbols);
    expect(back.cells.barcodes).toEqual(ds.cells.barcodes);
    expect(back.cells.columns['cluster']).toEqual({ kind: 'categorical', values: cluster });
    expect(back.cells.columns['n_genes']?.kind).toBe('numeric');
    expect(back.embeddings['X_umap']?.dims).toBe(2);
    expect(back.embeddings['X_umap']?.values[5]).toBeCloseTo(5 / 7, 6);
    expect(back.warnings.join(' ')).toContain('layers["counts"]');
    const s = await h5Structure(bytes);
    expect(s.get('/uns/params/resolution')).toMatchObject({ type: 'numeric-scalar' });
    expect(s.get('/uns/params/method')).toMatchObject({ type: 'string' });
    expect(s.get('/var/highly_variable')).toMatchObject({ type: 'array' });
  });

  const ref = sharedData('pbmc3k/pbmc3k.h5ad');
  it.skipIf(!ref)('has the same element encodings as a file written by anndata (pbmc3k.h5ad)', async () => {
    const refBytes = new Uint8Array(readFileSync(ref!));
    const ds = await readH5adBytes(refBytes, 'pbmc3k.h5ad');
    const bytes = await writeH5ad({
      counts: ds.counts,
      genes: ds.genes,
      barcodes: ds.cells.barcodes,
      obs: ds.cells.columns,
      obsm: ds.embeddings,
      uns: { source: 'CellCloud test' },
    });
    const theirs = await h5Structure(refBytes);
    const ours = await h5Structure(bytes);
    const compared: string[] = [];
    for (const [p, info] of theirs) {
      if (p.startsWith('/obs/barcode') || !ours.has(p)) continue;
      const mine = ours.get(p)!;
      expect({ p, kind: mine.kind, type: mine.type, version: mine.version }).toEqual({
        p,
        kind: info.kind,
        type: info.type,
        version: info.version,
      });
      if (info.kind === 'dataset' && info.shape) expect(mine.shape).toEqual(info.shape);
      compared.push(p);
    }
    for (const p of [
      '/',
      '/X',
      '/X/data',
      '/X/indptr',
      '/obs',
      '/var',
      '/obs/seurat_cluster',
      '/obs/seurat_cluster/codes',
      '/obs/seurat_cluster/categories',
      '/obs/nCount_RNA',
      '/obsm/X_umap',
      '/uns/source',
      '/layers',
      '/obsp',
      '/varm',
      '/varp',
    ]) {
      expect(compared).toContain(p);
    }
    const again = await readH5adBytes(bytes, 'again.h5ad');
    expect(Array.from(again.counts.data)).toEqual(Array.from(ds.counts.data));
    expect(again.cells.columns['label']).toEqual(ds.cells.columns['label']);
  });

  // a python with h5py, preferring one that also has anndata (Debian's python3-anndata lives in
  // /usr/bin/python3, which may not be the first python3 on PATH)
  const pythonWith = (modules: string) =>
    ['python3', '/usr/bin/python3'].find((py) => {
      try {
        execFileSync(py, ['-c', `import ${modules}`], { stdio: 'ignore' });
        return true;
      } catch {
        return false;
      }
    });
  const python = pythonWith('h5py, anndata') ?? pythonWith('h5py');
  it.skipIf(!python)('opens with h5py and anndata (when installed) with the same content', async () => {
    const ds = smallDataset();
    const dir = mkdtempSync(path.join(tmpdir(), 'cellcloud-h5ad-'));
    const file = path.join(dir, 'x.h5ad');
    const cluster = ds.cells.barcodes.map((_, i) => `c${i % 3}`);
    writeFileSync(
      file,
      await writeH5ad({
        counts: ds.counts,
        genes: ds.genes,
        barcodes: ds.cells.barcodes,
        normalized: lognorm(ds.counts),
        obs: {
          cluster: { kind: 'categorical', values: cluster },
          n_counts: { kind: 'numeric', values: new Float64Array(ds.counts.nCells).fill(2) },
        },
        var: { highly_variable: { kind: 'boolean', values: ds.genes.ids.map((_, g) => g < 10) } },
        obsm: { X_umap: { dims: 2, values: new Float32Array(ds.counts.nCells * 2).fill(0.5) } },
        uns: { params: { resolution: 0.8, method: 'leiden' } },
        // two-element chunks: hundreds of chunks per matrix array, so the chunk B-tree has two levels
        blockElements: 2,
      }),
    );
    const script = String.raw`
import sys, h5py
f = h5py.File(sys.argv[1], "r")
dec = lambda v: v.decode() if isinstance(v, bytes) else str(v)
print("h5py", dec(f["X"].attrs["encoding-type"]), tuple(int(x) for x in f["X"].attrs["shape"]), [dec(c) for c in f["obs"].attrs["column-order"]], f["var/highly_variable"].dtype, type(f["obs/cluster"].attrs["ordered"]).__name__, type(f["X"].attrs["encoding-type"]).__name__)
# the counts layer shares X's sparsity layout: its indices and indptr are hard links to X's
# datasets (one object, two names), integers byte-shuffled before deflate, floats not
print("link", f["X/indices"].id == f["layers/counts/indices"].id, f["X/indptr"].id == f["layers/counts/indptr"].id, h5py.h5o.get_info(f["X/indices"].id).rc, f["X/indices"].shuffle, f["X/data"].shuffle, f["X/indices"].compression)
try:
    import anndata
except ImportError:
    sys.exit(0)
a = anndata.read_h5ad(sys.argv[1])
print("anndata", a.shape, int(round(a.layers["counts"].sum())), list(a.obs["cluster"].cat.categories), int(a.var["highly_variable"].sum()), a.obsm["X_umap"].shape, a.uns["params"]["method"], float(a.uns["params"]["resolution"]), a.var_names[0], a.var["gene_ids"][0])
print("mask", a.var["highly_variable"].dtype, a[:, a.var["highly_variable"]].shape, a.obs["cluster"].cat.ordered)
`;
    const out = execFileSync(python!, ['-c', script, file], { encoding: 'utf8' });
    // booleans are HDF5 enums as h5py writes them: numpy bool, and the categorical "ordered" flag too;
    // string attributes are variable-length (str in Python, as h5py writes them)
    expect(out).toContain(
      `h5py csr_matrix (${ds.counts.nCells}, ${ds.counts.nGenes}) ['cluster', 'n_counts'] bool bool_ str`,
    );
    expect(out).toContain('link True True 2 True False gzip');
    const total = ds.counts.data.reduce((a, b) => a + b, 0);
    if (out.includes('anndata')) {
      expect(out).toContain(
        `anndata (${ds.counts.nCells}, ${ds.counts.nGenes}) ${total} ['c0', 'c1', 'c2'] 10 (${ds.counts.nCells}, 2) leiden 0.8 MT-CO1 ${ds.genes.ids[0]}`,
      );
      // no shim: anndata 0.8 (Debian) reads the file as is; the HVG mask selects the 10 HVGs
      expect(out).toContain(`mask bool (${ds.counts.nCells}, 10) False`);
    }
  });

  it('is picked by readDataset from a bundle (arrays written in small blocks)', async () => {
    const ds = smallDataset();
    const bytes = await writeH5ad({
      counts: ds.counts,
      genes: ds.genes,
      barcodes: ds.cells.barcodes,
      blockElements: 7,
    });
    const s = await h5Structure(bytes);
    expect(s.get('/X/data')?.shape).toEqual([ds.counts.indptr[ds.counts.nCells]]);
    const back = await readDataset(bundleOf('upload', [bytesSource('x.h5ad', bytes)]));
    expect(back.format).toBe('h5ad');
    expect(Array.from(back.counts.data)).toEqual(Array.from(ds.counts.data));
  });
});
