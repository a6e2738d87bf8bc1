import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { hasSharedData, sharedData } from '@cellcloud/testkit';
import { decontx } from '../../src/methods/decontx';
import { Random } from '../../src/methods/random';
import { fitDirichlet } from '../../src/methods/special';
import { fromDenseColumns, load10x } from './fixtures';

/** Multinomial draw of `size` counts over probabilities `p` (via the cumulative distribution). */
function multinomial(rng: Random, size: number, p: Float64Array): Float64Array {
  const cum = new Float64Array(p.length);
  let s = 0;
  p.forEach((v, i) => (cum[i] = s += v));
  const out = new Float64Array(p.length);
  for (let n = 0; n < size; n++) {
    const u = rng.uniform() * s;
    let lo = 0;
    let hi = p.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cum[mid] < u) lo = mid + 1;
      else hi = mid;
    }
    out[lo]++;
  }
  return out;
}

/** celda::simulateContamination: native counts from φ_z, contamination from the other clusters' mix. */
function simulate(seed: number, C = 600, G = 200, K = 4) {
  const rng = new Random(seed);
  const phi: Float64Array[] = [];
  for (let k = 0; k < K; k++) {
    const p = Float64Array.from({ length: G }, () => rng.gamma(0.1) + 1e-12);
    const markers = Array.from({ length: 5 }, (_, m) => k * 5 + m);
    const max = Math.max(...p);
    markers.forEach((g) => (p[g] = max));
    phi.push(p);
  }
  for (let k = 0; k < K; k++)
    for (let j = 0; j < K; j++) if (j !== k) for (let m = 0; m < 5; m++) phi[j][k * 5 + m] = 0;
  phi.forEach((p) => {
    const s = p.reduce((a, b) => a + b, 0);
    p.forEach((v, i) => (p[i] = v / s));
  });
  const z = Int32Array.from({ length: C }, () => rng.int(K));
  const trueCont = new Float64Array(C);
  const nativeCols: Float64Array[] = [];
  const observedCols: Float64Array[] = [];
  // native counts first, then η_k = other clusters' total native expression
  const frac = Float64Array.from({ length: C }, () => rng.beta(1, 10));
  const sizes = Int32Array.from({ length: C }, () => 500 + rng.int(501));
  const contCounts = Int32Array.from(sizes, (n, c) => {
    let x = 0;
    for (let i = 0; i < n; i++) if (rng.uniform() < frac[c]) x++;
    return x;
  });
  for (let c = 0; c < C; c++) nativeCols.push(multinomial(rng, sizes[c] - contCounts[c], phi[z[c]]));
  const byCluster = Array.from({ length: K }, () => new Float64Array(G));
  nativeCols.forEach((col, c) => col.forEach((v, g) => (byCluster[z[c]][g] += v)));
  const total = new Float64Array(G);
  byCluster.forEach((b) => b.forEach((v, g) => (total[g] += v)));
  const eta = byCluster.map((b) => total.map((t, g) => t - b[g]));
  for (let c = 0; c < C; c++) {
    const cont = multinomial(rng, contCounts[c], eta[z[c]]);
    observedCols.push(nativeCols[c].map((v, g) => v + cont[g]));
    trueCont[c] = contCounts[c] / sizes[c];
  }
  return { counts: fromDenseColumns(observedCols, G), native: nativeCols, z, trueCont };
}

const pearson = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  const n = a.length;
  let ma = 0;
  let mb = 0;
  for (let i = 0; i < n; i++) {
    ma += a[i] / n;
    mb += b[i] / n;
  }
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  for (let i = 0; i < n; i++) {
    sab += (a[i] - ma) * (b[i] - mb);
    saa += (a[i] - ma) ** 2;
    sbb += (b[i] - mb) ** 2;
  }
  return sab / Math.sqrt(saa * sbb);
};

describe('decontx', () => {
  it('recovers the simulated contamination fraction per cell', () => {
    const sim = simulate(7);
    const res = decontx(sim.counts, sim.z, { seed: 1 });
    let mae = 0;
    for (let c = 0; c < sim.counts.nCells; c++)
      mae += Math.abs(res.contamination[c] - sim.trueCont[c]) / sim.counts.nCells;
    const r = pearson(res.contamination, sim.trueCont);
    const trueMedian = Float64Array.from(sim.trueCont).sort()[sim.counts.nCells / 2];
    console.log(
      `[decontx synthetic] median estimated ${res.median.toFixed(4)} vs true ${trueMedian.toFixed(4)}, mean abs error ${mae.toFixed(4)}, r ${r.toFixed(3)}, ${res.iterations} iterations, delta ${res.delta.map((d) => d.toFixed(2)).join('/')}`,
    );
    expect(mae).toBeLessThan(0.03);
    expect(r).toBeGreaterThan(0.8);
    expect(Math.abs(res.median - trueMedian)).toBeLessThan(0.03);
    expect(res.median).toBeLessThan(0.25); // not a contaminated sample

    // decontaminated counts: integers, never above the observed counts, closer to the native counts
    const { decontaminated: d } = res;
    let before = 0;
    let after = 0;
    for (let c = 0; c < d.nCells; c++) {
      const obs = new Float64Array(d.nGenes);
      for (let t = sim.counts.indptr[c]; t < sim.counts.indptr[c + 1]; t++)
        obs[sim.counts.indices[t]] = sim.counts.data[t];
      const clean = new Float64Array(d.nGenes);
      for (let t = d.indptr[c]; t < d.indptr[c + 1]; t++) {
        expect(Number.isInteger(d.data[t])).toBe(true);
        clean[d.indices[t]] = d.data[t];
      }
      for (let g = 0; g < d.nGenes; g++) {
        expect(clean[g]).toBeLessThanOrEqual(obs[g]);
        before += Math.abs(obs[g] - sim.native[c][g]);
        after += Math.abs(clean[g] - sim.native[c][g]);
      }
    }
    expect(after).toBeLessThan(0.5 * before);
    expect(decontx(sim.counts, sim.z, { seed: 1 }).contamination).toEqual(res.contamination);
  });

  it('flags a heavily contaminated sample through its median', () => {
    const sim = simulate(11, 300, 150, 3);
    // add a large dose of ambient RNA (the pooled profile) to every cell
    const pooled = new Float64Array(sim.counts.nGenes);
    for (let t = 0; t < sim.counts.data.length; t++) pooled[sim.counts.indices[t]] += sim.counts.data[t];
    const rng = new Random(5);
    const cols: Float64Array[] = [];
    for (let c = 0; c < sim.counts.nCells; c++) {
      const col = new Float64Array(sim.counts.nGenes);
      let n = 0;
      for (let t = sim.counts.indptr[c]; t < sim.counts.indptr[c + 1]; t++) {
        col[sim.counts.indices[t]] = sim.counts.data[t];
        n += sim.counts.data[t];
      }
      const amb = multinomial(rng, Math.round(n * 0.8), pooled);
      cols.push(col.map((v, g) => v + amb[g]));
    }
    const res = decontx(fromDenseColumns(cols, sim.counts.nGenes), sim.z, { seed: 1 });
    console.log(`[decontx contaminated] median ${res.median.toFixed(3)}`);
    expect(res.median).toBeGreaterThan(0.25);
  });

  it('refuses a single cluster and wrong lengths with clear messages', () => {
    const sim = simulate(3, 40, 30, 2);
    expect(() => decontx(sim.counts, new Int32Array(40))).toThrow(/at least 2 clusters/);
    expect(() => decontx(sim.counts, new Int32Array(39))).toThrow(/clusters.*length 39/);
  });
});

describe('fitDirichlet', () => {
  it('recovers Beta parameters from samples', () => {
    const rng = new Random(4);
    const n = 20000;
    const x = new Float64Array(2 * n);
    for (let i = 0; i < n; i++) {
      const b = rng.beta(3, 7);
      x[2 * i] = b;
      x[2 * i + 1] = 1 - b;
    }
    const a = fitDirichlet(x, n, 2);
    expect(a[0]).toBeCloseTo(3, 0);
    expect(a[1]).toBeCloseTo(7, 0);
  });
});

describe.skipIf(!hasSharedData('pbmc3k/10x/matrix.mtx.gz', 'pbmc3k/pbmc3k_seurat_metadata.csv'))(
  'decontx on pbmc3k',
  () => {
    it('reports a low median contamination for the Seurat clusters of a clean PBMC sample', async () => {
      const ds = await load10x(sharedData('pbmc3k/10x')!);
      const rows = readFileSync(sharedData('pbmc3k/pbmc3k_seurat_metadata.csv')!, 'utf8')
        .trim()
        .split('\n')
        .slice(1);
      const clusterOf = new Map(rows.map((r) => [r.split(',')[0], Number(r.split(',')[4])]));
      const clusters = Int32Array.from(ds.cells.barcodes, (b) => clusterOf.get(b) ?? -1);
      expect(clusters.includes(-1)).toBe(false);
      const res = decontx(ds.counts, clusters, { seed: 1 });
      const q = Float64Array.from(res.contamination).sort();
      console.log(
        `[decontx pbmc3k] median contamination ${res.median.toFixed(4)} (10th–90th percentile ${q[Math.floor(0.1 * q.length)].toFixed(4)}–${q[Math.floor(0.9 * q.length)].toFixed(4)}), ${res.iterations} iterations`,
      );
      expect(res.median).toBeGreaterThan(0);
      expect(res.median).toBeLessThan(0.25);
      let removed = 0;
      let total = 0;
      for (const v of ds.counts.data) total += v;
      for (const v of res.decontaminated.data) removed += v;
      expect(removed).toBeLessThan(total);
    });
  },
);
