import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileRandomAccess } from '../src/node-sources';
import { writeH5adWithObs } from '../src/h5ad-with-obs';
import { isDataset, isGroup, withH5, type H5Group } from '../src/h5-io';
import { MemorySink } from '../src/hdf5-write';
import type { CountMatrix } from '../src/matrix';
import { readH5adBytes } from '../src/read-h5ad';
import { writeH5ad } from '../src/write-h5ad';

/** Every element's path → attributes and values (for comparing a copy with its original). */
async function contents(bytes: Uint8Array): Promise<Map<string, unknown>> {
  return withH5(bytes, 'contents', (f) => {
    const out = new Map<string, unknown>();
    const walk = (g: H5Group) => {
      const attrs = (e: H5Group) =>
        Object.fromEntries(Object.entries(e.attrs).map(([k, a]) => [k, a.json_value]));
      out.set(`${g.path}@`, attrs(g));
      for (const k of g.keys()) {
        const e = g.get(k);
        if (isGroup(e)) walk(e);
        else if (isDataset(e)) {
          const v = e.value;
          out.set(e.path, {
            attrs: attrs(e as unknown as H5Group),
            dtype: e.dtype,
            shape: e.shape,
            value: ArrayBuffer.isView(v) ? Array.from(v as ArrayLike<number | bigint>, String) : v,
          });
        }
      }
    };
    walk(f);
    return out;
  });
}

/** A dense 300 cells × 1,000 genes matrix: 300k non-zeros, more than one 262,144-element chunk. */
function dense(nCells: number, nGenes: number): CountMatrix {
  const n = nCells * nGenes;
  return {
    nCells,
    nGenes,
    indptr: Float64Array.from({ length: nCells + 1 }, (_, c) => c * nGenes),
    indices: Uint32Array.from({ length: n }, (_, k) => k % nGenes),
    data: Float32Array.from({ length: n }, (_, k) => 1 + (k % 7)),
  };
}

/** Counts, log1p normalized values, 1,000 genes and the barcodes of an analysis.h5ad. */
const base = (counts: CountMatrix, barcodes: string[]) => ({
  counts,
  normalized: { ...counts, data: counts.data.map((x) => Math.log1p(x)) },
  genes: {
    ids: Array.from({ length: counts.nGenes }, (_, g) => `ENSG${g}`),
    symbols: Array.from({ length: counts.nGenes }, (_, g) => `G${g}`),
  },
  barcodes,
});

describe('writeH5adWithObs (download of a result with its saved annotation levels)', () => {
  it('copies every element as stored and adds / replaces obs columns', async () => {
    const nCells = 300;
    const counts = dense(nCells, 1000);
    const barcodes = Array.from({ length: nCells }, (_, i) => `AAAC-${i}`);
    const original = await writeH5ad({
      ...base(counts, barcodes),
      obs: {
        cluster: { kind: 'categorical', values: barcodes.map((_, i) => String(i % 4)) },
        n_genes: { kind: 'numeric', values: Float64Array.from(barcodes, (_, i) => i) },
      },
      var: {
        highly_variable: { kind: 'boolean', values: Array.from({ length: 1000 }, (_, g) => g % 3 === 0) },
      },
      obsm: {
        X_umap: { dims: 2, values: Float32Array.from({ length: nCells * 2 }, (_, i) => i / 3) },
        // 300 × 1,000 = 300k elements: copied by chunks of rows
        X_wide: { dims: 1000, values: Float32Array.from({ length: nCells * 1000 }, (_, i) => i % 977) },
      },
      uns: { cellcloud: { engineVersion: 'x', params: '{"a":1}', nPcsUsed: 30, batchCorrection: false } },
    });
    const sink = new MemorySink();
    const edited = barcodes.map((_, i) => (i % 4 === 0 ? 'T cell' : 'B cell'));
    const size = await writeH5adWithObs(
      original,
      {
        my_labels: { kind: 'categorical', values: edited },
        cluster: { kind: 'categorical', values: barcodes.map((_, i) => String(i % 2)) },
        annot_auto_score: { kind: 'numeric', values: Float64Array.from(barcodes, (_, i) => i / 10) },
      },
      sink,
    );
    const copy = sink.bytes();
    expect(size).toBe(copy.byteLength);

    const back = await readH5adBytes(copy, 'copy.h5ad');
    expect(back.cells.barcodes).toEqual(barcodes);
    expect(Object.keys(back.cells.columns)).toEqual(['cluster', 'n_genes', 'my_labels', 'annot_auto_score']);
    expect(back.cells.columns['my_labels']!.values).toEqual(edited);
    expect(back.cells.columns['cluster']!.values[3]).toBe('1');
    expect(Array.from(back.cells.columns['annot_auto_score']!.values as Float64Array).slice(0, 3)).toEqual([
      0, 0.1, 0.2,
    ]);
    expect(back.counts.indptr[nCells]).toBe(300_000);
    expect(Array.from(back.counts.data.subarray(299_990))).toEqual(Array.from(counts.data.subarray(299_990)));

    // everything outside obs is identical, attributes and types included
    const [a, b] = [await contents(original), await contents(copy)];
    const outside = (m: Map<string, unknown>) =>
      new Map([...m].filter(([k]) => !k.startsWith('/obs/') && k !== '/obs@'));
    expect(outside(b)).toEqual(outside(a));
    expect(b.get('/obs/n_genes')).toEqual(a.get('/obs/n_genes'));
    expect(b.get('/obs@')).toMatchObject({
      _index: '_index',
      'encoding-type': 'dataframe',
      'column-order': ['cluster', 'n_genes', 'my_labels', 'annot_auto_score'],
    });
  });

  it('reads the stored file from a file handle range by range, with the same output as from bytes', async () => {
    const nCells = 300;
    const counts = dense(nCells, 1000);
    const barcodes = Array.from({ length: nCells }, (_, i) => `AAAC-${i}`);
    const original = await writeH5ad({
      ...base(counts, barcodes),
      obsm: {
        X_pca: {
          dims: 1000,
          values: Float32Array.from({ length: nCells * 1000 }, (_, i) => Math.sin(i * 12.9898) * 43758.5453),
        },
      },
    });
    const obs = { my_labels: { kind: 'categorical' as const, values: barcodes.map((_, i) => `L${i % 3}`) } };
    const fromBytes = new MemorySink();
    await writeH5adWithObs(original, obs, fromBytes);
    const dir = mkdtempSync(path.join(tmpdir(), 'h5ad-source-'));
    try {
      const file = path.join(dir, 'analysis.h5ad');
      writeFileSync(file, original);
      const handle = fileRandomAccess(file);
      const reads: number[] = [];
      const source = {
        size: handle.size,
        readInto: (into: Uint8Array, at: number) => (reads.push(into.length), handle.readInto(into, at)),
      };
      const fromFile = new MemorySink();
      try {
        await writeH5adWithObs(source, obs, fromFile);
      } finally {
        handle.close();
      }
      expect(fromFile.bytes()).toEqual(fromBytes.bytes());
      // the file (≈ 1.2 MB of incompressible PCA values) is read in ranges of at most one
      // compressed chunk (262,144 elements × 4 bytes), never whole
      expect(original.byteLength).toBeGreaterThan(1_100_000);
      expect(Math.max(...reads)).toBeLessThanOrEqual(262_144 * 4);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a column of another length with a format error', async () => {
    const counts = dense(3, 2);
    const original = await writeH5ad({
      counts,
      genes: { ids: ['a', 'b'], symbols: ['A', 'B'] },
      barcodes: ['x', 'y', 'z'],
    });
    await expect(
      writeH5adWithObs(original, { bad: { kind: 'categorical', values: ['1'] } }, new MemorySink()),
    ).rejects.toMatchObject({ code: 'write.invalid_input' });
  });
});
