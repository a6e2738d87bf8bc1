import { describe, expect, it } from 'vitest';
import { hasSharedData, sharedData } from '@cellcloud/testkit';
import { harmony } from '../../src/methods/harmony';
import { lisi } from '../../src/methods/lisi';
import { knnExact } from '../../src/methods/knn';
import { pearsonResidualHvg } from '../../src/methods/pearson-hvg';
import { geneValues, load10x, logNormalize, pcaOf } from './fixtures';

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
  for (let i = 0; i < labels.length; i++) for (let t = 0; t < k; t++) if (labels[indices[i * k + t]] === labels[i]) same++;
  return same / (labels.length * k);
}

describe.skipIf(!hasSharedData('ifnb_kang2018_subset/matrix.mtx.gz'))('harmony on ifnb_kang2018_subset (ctrl vs stim)', () => {
  it('mixes the two batches while monocytes and T cells stay apart', async () => {
    const ds = await load10x(sharedData('ifnb_kang2018_subset')!);
    const counts = ds.counts;
    const batch = Int32Array.from(ds.cells.barcodes, (b) => (b.startsWith('stim_') ? 1 : 0));
    expect(batch.reduce((a, b) => a + b, 0)).toBe(1000);
    const hvg = pearsonResidualHvg(counts, 2000);
    const logm = logNormalize(counts);
    const dims = 20;
    const pcs = pcaOf(logm, hvg.selected, dims);
    const corrected = harmony(pcs, counts.nCells, dims, batch, { seed: 0 });
    expect(corrected.length).toBe(pcs.length);
    expect(harmony(pcs, counts.nCells, dims, batch, { seed: 0 })).toEqual(corrected); // deterministic

    const iBefore = median(lisi(pcs, counts.nCells, dims, batch));
    const iAfter = median(lisi(corrected, counts.nCells, dims, batch));

    // marker-defined labels: monocytes (CD14/LYZ high, no CD3D) vs T cells (CD3D high, no LYZ)
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
    const lab = Int32Array.from(labels);
    const nMono = labels.filter((l) => l === 0).length;
    expect(nMono).toBeGreaterThan(100);
    expect(labels.length - nMono).toBeGreaterThan(100);
    const cBefore = median(lisi(subset(pcs, dims, cells), cells.length, dims, lab));
    const cAfter = median(lisi(subset(corrected, dims, cells), cells.length, dims, lab));
    const purityAfter = knnPurity(subset(corrected, dims, cells), dims, lab);
    // batch mixing within the monocytes alone (the stimulated monocytes shift the most)
    const monoCells = cells.filter((_, i) => labels[i] === 0);
    const monoBatch = Int32Array.from(monoCells, (c) => batch[c]);
    const monoBefore = median(lisi(subset(pcs, dims, monoCells), monoCells.length, dims, monoBatch));
    const monoAfter = median(lisi(subset(corrected, dims, monoCells), monoCells.length, dims, monoBatch));
    console.log(
      `[harmony ifnb] iLISI median ${iBefore.toFixed(3)} -> ${iAfter.toFixed(3)}; monocyte iLISI ${monoBefore.toFixed(3)} -> ${monoAfter.toFixed(3)}; ` +
        `cLISI(mono vs T, ${nMono}/${labels.length - nMono} cells) ${cBefore.toFixed(3)} -> ${cAfter.toFixed(3)}; kNN purity after ${purityAfter.toFixed(3)}`,
    );
    expect(iAfter).toBeGreaterThan(iBefore + 0.2);
    expect(iAfter).toBeGreaterThan(1.5);
    expect(monoAfter).toBeGreaterThan(monoBefore);
    expect(cAfter).toBeLessThan(1.1);
    expect(purityAfter).toBeGreaterThan(0.95);
  });
});

describe('harmony input checks', () => {
  it('rejects unknown options and wrong lengths with a clear message', () => {
    const pcs = new Float32Array(6);
    expect(() => harmony(pcs, 3, 2, new Int32Array(2))).toThrow(/batch.*length 2 but 3/);
    expect(() => harmony(pcs, 3, 2, new Int32Array(3), { thetta: 2 } as never)).toThrow(/unknown option 'thetta'/);
  });
  it('returns the input unchanged for a single batch', () => {
    const pcs = Float32Array.from([1, 2, 3, 4, 5, 6]);
    expect(harmony(pcs, 3, 2, new Int32Array(3))).toEqual(pcs);
  });
});
