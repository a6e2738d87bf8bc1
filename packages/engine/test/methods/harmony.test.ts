import { beforeAll, describe, expect, it } from 'vitest';
import { hasSharedData, sharedData } from '@cellcloud/testkit';
import { harmony } from '../../src/methods/harmony';
import { mnnCorrect } from '../../src/methods/mnn';
import { lisi } from '../../src/methods/lisi';
import { knnExact } from '../../src/methods/knn';
import { pearsonResidualHvg } from '../../src/methods/pearson-hvg';
import { geneValues, load10x, logNormalize, pcaOf } from './fixtures';
import { Random } from '../../src/methods/random';

const median = (x: ArrayLike<number>) => {
  const s = Float64Array.from(x).sort();
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

function subset(coords: Float32Array, dims: number, cells: number[]): Float32Array {
  const out = new Float32Array(cells.length * dims);
  cells.forEach((c, i) => out.set(coords.subarray(c * dims, c * dims + dims), i * dims));
  return out;
}

/** Fraction of each labelled cell's 15 nearest labelled neighbours sharing its label. */
function knnPurity(coords: Float32Array, dims: number, labels: Int32Array): number {
  const k = 15;
  const { indices } = knnExact(coords, labels.length, dims, k);
  let same = 0;
  for (let i = 0; i < labels.length; i++)
    for (let t = 0; t < k; t++) if (labels[indices[i * k + t]] === labels[i]) same++;
  return same / (labels.length * k);
}

interface Prepared {
  pcs: Float32Array;
  nCells: number;
  batch: Int32Array;
  cells: number[]; // marker-labelled cells
  labels: Int32Array; // 0 = monocyte, 1 = T cell
}

const DIMS = 20;

/** ifnb: Pearson-residual HVGs, log-normalisation, scaled PCA, marker-defined monocytes vs T cells. */
async function prepare(): Promise<Prepared> {
  const ds = await load10x(sharedData('ifnb_kang2018_subset')!);
  const counts = ds.counts;
  const batch = Int32Array.from(ds.cells.barcodes, (b) => (b.startsWith('stim_') ? 1 : 0));
  const hvg = pearsonResidualHvg(counts, 2000);
  const logm = logNormalize(counts);
  const pcs = pcaOf(logm, hvg.selected, DIMS);
  const sym = ds.genes.symbols;
  const lyz = geneValues(logm, sym.indexOf('LYZ'));
  const cd14 = geneValues(logm, sym.indexOf('CD14'));
  const cd3d = geneValues(logm, sym.indexOf('CD3D'));
  const cells: number[] = [];
  const labels: number[] = [];
  for (let c = 0; c < counts.nCells; c++) {
    if (lyz[c] > 3 && (cd14[c] > 0 || lyz[c] > 4) && cd3d[c] === 0) {
      cells.push(c);
      labels.push(0);
    } else if (cd3d[c] > 1.5 && lyz[c] < 1) {
      cells.push(c);
      labels.push(1);
    }
  }
  return { pcs, nCells: counts.nCells, batch, cells, labels: Int32Array.from(labels) };
}

/** iLISI (all cells, and monocytes alone), cLISI and kNN purity of the marker labels. */
function mixing(p: Prepared, coords: Float32Array) {
  const monoCells = p.cells.filter((_, i) => p.labels[i] === 0);
  const monoBatch = Int32Array.from(monoCells, (c) => p.batch[c]);
  const labelled = subset(coords, DIMS, p.cells);
  return {
    iLisi: median(lisi(coords, p.nCells, DIMS, p.batch)),
    monoILisi: median(lisi(subset(coords, DIMS, monoCells), monoCells.length, DIMS, monoBatch)),
    cLisi: median(lisi(labelled, p.cells.length, DIMS, p.labels)),
    purity: knnPurity(labelled, DIMS, p.labels),
  };
}

const fmt = (m: ReturnType<typeof mixing>) =>
  `iLISI ${m.iLisi.toFixed(3)}, monocyte iLISI ${m.monoILisi.toFixed(3)}, cLISI ${m.cLisi.toFixed(3)}, kNN purity ${m.purity.toFixed(3)}`;

describe.skipIf(!hasSharedData('ifnb_kang2018_subset/matrix.mtx.gz'))(
  'batch correction on ifnb_kang2018_subset (ctrl vs stim)',
  () => {
    let p: Prepared;
    let before: ReturnType<typeof mixing>;
    beforeAll(async () => {
      p = await prepare();
      before = mixing(p, p.pcs);
    });

    it('has two batches of 1000 cells and enough marker-labelled monocytes and T cells', () => {
      expect(p.batch.reduce((a, b) => a + b, 0)).toBe(1000);
      const nMono = p.labels.filter((l) => l === 0).length;
      expect(nMono).toBeGreaterThan(100);
      expect(p.labels.length - nMono).toBeGreaterThan(100);
    });

    it('harmony mixes the two batches while monocytes and T cells stay apart', () => {
      const corrected = harmony(p.pcs, p.nCells, DIMS, p.batch, { seed: 0 });
      expect(corrected.length).toBe(p.pcs.length);
      expect(harmony(p.pcs, p.nCells, DIMS, p.batch, { seed: 0 })).toEqual(corrected); // deterministic
      const after = mixing(p, corrected);
      console.log(`[harmony ifnb] before: ${fmt(before)}\n[harmony ifnb] after:  ${fmt(after)}`);
      expect(after.iLisi).toBeGreaterThan(before.iLisi + 0.2);
      expect(after.iLisi).toBeGreaterThan(1.5);
      expect(after.monoILisi).toBeGreaterThan(before.monoILisi);
      expect(after.cLisi).toBeLessThan(1.1);
      expect(after.purity).toBeGreaterThan(0.95);
    });

    it('MNN (scran.js) also improves mixing and keeps the cell types apart', async () => {
      const corrected = await mnnCorrect(p.pcs, p.nCells, DIMS, p.batch);
      const after = mixing(p, corrected);
      console.log(`[mnn ifnb] after: ${fmt(after)}`);
      expect(after.iLisi).toBeGreaterThan(before.iLisi + 0.1);
      expect(after.cLisi).toBeLessThan(1.1);
      expect(after.purity).toBeGreaterThan(0.95);
    });
  },
);

describe('harmony input checks', () => {
  it('rejects unknown options and wrong lengths with a clear message', () => {
    const pcs = new Float32Array(6);
    expect(() => harmony(pcs, 3, 2, new Int32Array(2))).toThrow(/batch.*length 2 but 3/);
    expect(() => harmony(pcs, 3, 2, new Int32Array(3), { thetta: 2 } as never)).toThrow(
      /unknown option 'thetta'/,
    );
  });
  it('returns the input unchanged for a single batch', () => {
    const pcs = Float32Array.from([1, 2, 3, 4, 5, 6]);
    expect(harmony(pcs, 3, 2, new Int32Array(3))).toEqual(pcs);
  });
});

describe('harmony on synthetic batches', () => {
  it('removes a batch shift and keeps the cell types apart', () => {
    const rng = new Random(12);
    const d = 10;
    const n = 1200;
    const types = Array.from({ length: 3 }, () => Float64Array.from({ length: d }, () => 6 * rng.normal()));
    const shift = Float64Array.from({ length: d }, () => 3 * rng.normal());
    const pcs = new Float32Array(n * d);
    const batch = new Int32Array(n);
    const type = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      type[i] = i % 3;
      batch[i] = i % 2 === 0 ? 7 : 3; // arbitrary label values
      for (let j = 0; j < d; j++)
        pcs[i * d + j] = types[type[i]][j] + (batch[i] === 3 ? shift[j] : 0) + rng.normal();
    }
    const out = harmony(pcs, n, d, batch, { seed: 2 });
    /** Distance between the two batches' centroids within each type, averaged over types. */
    const batchGap = (x: Float32Array) => {
      let total = 0;
      for (let t = 0; t < 3; t++) {
        const sums = [new Float64Array(d), new Float64Array(d)];
        const counts = [0, 0];
        for (let i = 0; i < n; i++) {
          if (type[i] !== t) continue;
          const b = batch[i] === 3 ? 1 : 0;
          counts[b]++;
          for (let j = 0; j < d; j++) sums[b][j] += x[i * d + j];
        }
        let s = 0;
        for (let j = 0; j < d; j++) s += (sums[0][j] / counts[0] - sums[1][j] / counts[1]) ** 2;
        total += Math.sqrt(s) / 3;
      }
      return total;
    };
    const before = batchGap(pcs);
    const after = batchGap(out);
    const purity = knnPurity(out, d, type);
    console.log(
      `[harmony synthetic] within-type batch gap ${before.toFixed(2)} -> ${after.toFixed(2)}, type kNN purity ${purity.toFixed(3)}`,
    );
    expect(after).toBeLessThan(before / 4);
    expect(purity).toBeGreaterThan(0.99);
  });
});
