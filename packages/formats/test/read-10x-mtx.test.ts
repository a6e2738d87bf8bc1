import { sharedData } from '@cellcloud/testkit';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { read10xMtx } from '../src/read-10x-mtx';
import { folderBundle } from '../src/node-sources';

const cases = [
  { dir: 'pbmc3k/10x', genes: 13714, cells: 2638, nnz: 2238732, total: 6254880 },
  { dir: 'scanpy_bundled/10x_v3_small', genes: 507, cells: 1107, nnz: 23866 },
  { dir: 'scanpy_bundled/10x_v2_chr21', genes: 343, cells: 12, nnz: 12 },
  { dir: 'ifnb_kang2018_subset', genes: 9015, cells: 2000, nnz: 1129806 },
  { dir: 'mouse10k_subset_scanpy', genes: 1000, cells: 10000, nnz: 691914 },
];

describe('10x MTX reader on the shared data', () => {
  for (const c of cases) {
    const file = sharedData(path.join(c.dir, 'barcodes.tsv' + (c.dir.includes('chr21') ? '' : '.gz')));
    it.skipIf(!file)(`reads ${c.dir}`, async () => {
      const ds = await read10xMtx(await folderBundle(path.dirname(file!)));
      expect(ds.format).toBe('10x-mtx');
      expect(ds.counts.nGenes).toBe(c.genes);
      expect(ds.counts.nCells).toBe(c.cells);
      expect(ds.genes.ids).toHaveLength(c.genes);
      expect(ds.cells.barcodes).toHaveLength(c.cells);
      expect(ds.counts.indptr[c.cells]).toBe(c.nnz);
      expect(new Set(ds.genes.ids).size).toBe(c.genes);
      if (c.total) expect(ds.counts.data.reduce((a, b) => a + b, 0)).toBe(c.total);
      let unsorted = 0;
      for (let j = 0; j < ds.counts.nCells; j++) {
        for (let k = ds.counts.indptr[j]! + 1; k < ds.counts.indptr[j + 1]!; k++) {
          if (ds.counts.indices[k]! <= ds.counts.indices[k - 1]!) unsorted++;
        }
      }
      expect(unsorted).toBe(0);
    });
  }
});
