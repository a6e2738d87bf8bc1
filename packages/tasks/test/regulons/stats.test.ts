import { readFile } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { readH5adBytes } from '@cellcloud/formats';
import { sharedData } from '@cellcloud/testkit';
import { resultHandleFromDataset } from '@cellcloud/engine/tasks/kit';
import {
  activityByType,
  aucell,
  aucRankCutoff,
  csiMatrix,
  csiModules,
  geneTieOrder,
  regulonCorrelation,
  regulonSpecificity,
  zscoreClipped,
  type GeneSet,
} from '../../src/regulons/engine/stats';
import type { ResultHandle } from '@cellcloud/engine/tasks/kit';

const H5AD = sharedData('pbmc3k/pbmc3k.h5ad');
const DOROTHEA = sharedData('tf_regulons/dorothea_hs.tsv.gz');

/** Dense ranks of every gene in a cell, straight from a full sort (value desc, tie order asc). */
function fullRanks(values: Float64Array, tiePos: Int32Array): Int32Array {
  const genes = Array.from(values.keys()).sort((a, b) => values[b]! - values[a]! || tiePos[a]! - tiePos[b]!);
  const r = new Int32Array(values.length);
  genes.forEach((g, i) => (r[g] = i));
  return r;
}

describe.skipIf(!H5AD || !DOROTHEA)('SCENIC step-2 statistics on pbmc3k with DoRothEA regulons', () => {
  let result: ResultHandle;
  let sets: GeneSet[];
  const cells = Array.from({ length: 60 }, (_, i) => i * 40);
  beforeAll(async () => {
    const ds = await readH5adBytes(new Uint8Array(await readFile(H5AD!)), 'pbmc3k.h5ad');
    result = resultHandleFromDataset(ds, { species: 'human' });
    const rows = gunzipSync(await readFile(DOROTHEA!))
      .toString('utf8')
      .trim()
      .split('\n')
      .slice(1);
    const byTf = new Map<string, string[]>();
    for (const line of rows) {
      const [tf, conf, target] = line.split('\t') as [string, string, string];
      if (!'ABC'.includes(conf)) continue;
      let l = byTf.get(tf);
      if (!l) byTf.set(tf, (l = []));
      l.push(target);
    }
    sets = ['SPI1', 'CEBPB', 'PAX5', 'EBF1', 'TBX21', 'EOMES', 'STAT1', 'IRF8']
      .filter((tf) => byTf.has(tf))
      .map((tf) => {
        const targets = byTf.get(tf)!;
        const genes = targets
          .map((g) => result.geneIndex(g))
          .filter((g) => g >= 0 && result.genes.symbols[g] !== undefined);
        return { name: `${tf}(+)`, genes: [...new Set(genes)], size: targets.length };
      });
  });

  it('AUCell equals the rank-based AUC computed from full rankings (ctxcore formula)', () => {
    const norm = result.normalized();
    const nG = norm.nGenes;
    const auc = aucell(norm, cells, sets, { aucThreshold: 0.05, seed: 11 });
    const cutoff = aucRankCutoff(0.05, nG);
    const order = geneTieOrder(nG, 11);
    const tiePos = new Int32Array(nG);
    order.forEach((g, p) => (tiePos[g] = p));
    let nonZero = 0;
    cells.forEach((c, ci) => {
      const v = new Float64Array(nG);
      for (let k = norm.indptr[c]!; k < norm.indptr[c + 1]!; k++) v[norm.indices[k]!] = norm.data[k]!;
      const r = fullRanks(v, tiePos);
      sets.forEach((s, k) => {
        const valid = s.genes.length / s.size >= 0.8;
        const x = s.genes
          .map((g) => r[g]!)
          .filter((x) => x < cutoff)
          .sort((a, b) => a - b);
        x.push(cutoff);
        let area = 0;
        for (let j = 0; j + 1 < x.length; j++) area += (x[j + 1]! - x[j]!) * (j + 1);
        const expected = valid ? area / ((cutoff + 1) * s.genes.length) : 0;
        expect(auc[ci * sets.length + k]).toBeCloseTo(expected, 12);
        if (expected > 0) nonZero++;
      });
    });
    expect(nonZero).toBeGreaterThan(0);
    // same seed → same values
    expect(Array.from(aucell(norm, cells, sets, { aucThreshold: 0.05, seed: 11 }))).toEqual(Array.from(auc));
  });

  it('RSS, activity by type, heat-map z-scores and CSI equal direct computations', () => {
    const norm = result.normalized();
    const nS = sets.length;
    const auc = aucell(norm, cells, sets, { aucThreshold: 0.05, seed: 3 });
    const labels = cells.map((c) => String((result.obs('label')!.values as string[])[c]));
    const types = [...new Set(labels)].sort();
    const rss = regulonSpecificity(auc, cells.length, nS, labels, types);
    types.forEach((t, ti) => {
      for (let k = 0; k < nS; k++) {
        const a = cells.map((_, c) => auc[c * nS + k]!);
        const sa = a.reduce((s, v) => s + v, 0);
        const p = a.map((v) => (sa > 0 ? v / sa : 0));
        const n = labels.filter((l) => l === t).length;
        const q = labels.map((l) => (l === t ? 1 / n : 0));
        const kl = (x: number[], m: number[]) =>
          x.reduce((s, v, i) => s + (v > 0 ? v * Math.log(v / m[i]!) : 0), 0);
        const m = p.map((v, i) => (v + q[i]!) / 2);
        expect(rss[ti * nS + k]).toBeCloseTo(1 - Math.sqrt((kl(p, m) + kl(q, m)) / 2), 10);
      }
    });
    const { means, scaled } = activityByType(auc, cells.length, nS, labels, types);
    for (let k = 0; k < nS; k++) {
      const col = types.map((_, t) => means[t * nS + k]!);
      const mu = col.reduce((s, v) => s + v, 0) / col.length;
      const sd = Math.sqrt(col.reduce((s, v) => s + (v - mu) ** 2, 0) / (col.length - 1));
      types.forEach((_, t) => expect(scaled[t * nS + k]).toBeCloseTo(sd > 0 ? (col[t]! - mu) / sd : 0, 10));
    }
    const z = zscoreClipped(auc, cells.length, nS);
    expect(Math.max(...z)).toBeLessThanOrEqual(4);
    expect(Math.min(...z)).toBeGreaterThanOrEqual(-4);
    const pcc = regulonCorrelation(auc, cells.length, nS);
    const csi = csiMatrix(pcc, nS);
    for (let a = 0; a < nS; a++) {
      for (let b = 0; b < nS; b++) {
        const cut = pcc[a * nS + b]! - 0.05;
        let count = 0;
        for (let m = 0; m < nS; m++) if (pcc[a * nS + m]! < cut && pcc[b * nS + m]! < cut) count++;
        expect(csi[a * nS + b]).toBe(count / nS);
      }
    }
    const modules = csiModules(csi, nS, 3);
    expect(new Set(modules).size).toBe(Math.min(3, nS));
    expect(modules[0]).toBe(1);
  });

  it('activity with two types is scaled without centring (R scale on 2 groups)', () => {
    const auc = Float64Array.from([0.1, 0.3, 0.2, 0.5]);
    const { means, scaled } = activityByType(auc, 4, 1, ['a', 'a', 'b', 'b'], ['a', 'b']);
    const rms = Math.sqrt((means[0]! ** 2 + means[1]! ** 2) / 1);
    expect(scaled[0]).toBeCloseTo(means[0]! / rms, 12);
    expect(scaled[1]).toBeCloseTo(means[1]! / rms, 12);
  });
});
