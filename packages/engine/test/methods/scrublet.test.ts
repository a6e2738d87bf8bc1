import { describe, expect, it } from 'vitest';
import { hasSharedData, sharedData } from '@cellcloud/testkit';
import { scrublet, simulationsFor, SCRUBLET_MAX_SIMULATIONS } from '../../src/methods/scrublet';
import { thresholdMinimum } from '../../src/methods/threshold-minimum';
import { Random } from '../../src/methods/random';
import { fromDenseColumns, load10x, synthClusters } from './fixtures';

/** Area under the ROC curve of `scores` for the positives flagged in `truth`. */
function auc(scores: Float32Array, truth: Uint8Array): number {
  const order = Array.from(scores.keys()).sort((a, b) => scores[a] - scores[b]);
  let rankSum = 0;
  let nPos = 0;
  order.forEach((i, r) => {
    if (truth[i]) {
      rankSum += r + 1;
      nPos++;
    }
  });
  const nNeg = scores.length - nPos;
  return (rankSum - (nPos * (nPos + 1)) / 2) / (nPos * nNeg);
}

describe('scrublet', () => {
  it('finds planted heterotypic doublets in synthetic data', async () => {
    const { columns, types } = synthClusters({
      nCells: 1200,
      nGenes: 800,
      nTypes: 6,
      markersPerType: 40,
      fold: 10,
      meanLib: 2000,
      seed: 3,
    });
    const rng = new Random(9);
    const nDoublets = 60;
    const truth = new Uint8Array(columns.length + nDoublets);
    for (let d = 0; d < nDoublets; d++) {
      let a = 0;
      let b = 0;
      do {
        a = rng.int(1200);
        b = rng.int(1200);
      } while (types[a] === types[b]);
      columns.push(columns[a].map((v, g) => v + columns[b][g]));
      truth[1200 + d] = 1;
    }
    const counts = fromDenseColumns(columns, 800);
    const res = await scrublet(counts, { seed: 1 });
    expect(res.thresholdFound).toBe(true);
    let tp = 0;
    let fp = 0;
    for (let i = 0; i < truth.length; i++) {
      if (res.predicted[i] && truth[i]) tp++;
      else if (res.predicted[i]) fp++;
    }
    const recall = tp / nDoublets;
    const a = auc(res.scores, truth);
    console.log(
      `[scrublet synthetic] threshold ${res.threshold.toFixed(3)}, predicted ${tp + fp} (tp ${tp}, fp ${fp}), recall ${recall.toFixed(2)}, AUC ${a.toFixed(3)}, rate ${(100 * res.doubletRate).toFixed(1)}%`,
    );
    expect(a).toBeGreaterThan(0.95);
    expect(recall).toBeGreaterThan(0.6); // chance level would be the predicted fraction (~5%)
    expect(fp).toBeLessThan(2 * nDoublets);
    // 2,520 simulated doublets per simulation: five simulations, all their scores kept
    expect(simulationsFor(2 * counts.nCells)).toBe(SCRUBLET_MAX_SIMULATIONS);
    expect(res.simulatedScores.length).toBe(SCRUBLET_MAX_SIMULATIONS * 2 * counts.nCells);
    const again = await scrublet(counts, { seed: 1 });
    expect(again.scores).toEqual(res.scores);
    expect(again.predicted).toEqual(res.predicted);
  }, 300_000);

  it('averaged over several simulations, varies less with the seed than one simulation', async () => {
    const { columns } = synthClusters({
      nCells: 800,
      nGenes: 600,
      nTypes: 5,
      markersPerType: 30,
      fold: 6,
      meanLib: 1500,
      seed: 4,
    });
    const rng = new Random(5);
    for (let d = 0; d < 40; d++) {
      const a = rng.int(800);
      const b = rng.int(800);
      columns.push(columns[a].map((v, g) => v + columns[b][g]));
    }
    const counts = fromDenseColumns(columns, 600);
    /** Mean |score difference| and differing calls between seeds 1 and 2. */
    const spread = async (simulations?: number) => {
      const a = await scrublet(counts, { seed: 1, simulations });
      const b = await scrublet(counts, { seed: 2, simulations });
      let diff = 0;
      let flips = 0;
      for (let c = 0; c < counts.nCells; c++) {
        diff += Math.abs(a.scores[c] - b.scores[c]) / counts.nCells;
        if (a.predicted[c] !== b.predicted[c]) flips++;
      }
      return { diff, flips };
    };
    const one = await spread(1);
    const several = await spread();
    console.log(
      `[scrublet seeds] one simulation: mean |Δscore| ${one.diff.toFixed(4)}, ${one.flips} differing calls; ` +
        `${SCRUBLET_MAX_SIMULATIONS}: ${several.diff.toFixed(4)}, ${several.flips}`,
    );
    // five simulations: the score's sampling noise shrinks by about √5
    expect(several.diff).toBeLessThan(0.7 * one.diff);
    expect(several.flips).toBeLessThanOrEqual(one.flips);
  }, 300_000);

  it('takes one simulation from 25,000 simulated doublets on, at most five below', () => {
    expect(simulationsFor(5_000)).toBe(5);
    expect(simulationsFor(10_000)).toBe(3);
    expect(simulationsFor(20_000)).toBe(2);
    expect(simulationsFor(100_000)).toBe(1);
  });

  it.skipIf(!hasSharedData('pbmc3k/10x/matrix.mtx.gz'))(
    'gives a plausible doublet rate on pbmc3k',
    async () => {
      const ds = await load10x(sharedData('pbmc3k/10x')!);
      const res = await scrublet(ds.counts, { seed: 0 });
      console.log(
        `[scrublet pbmc3k] expected rate ${res.expectedDoubletRate}, threshold ${res.threshold.toFixed(3)}, predicted ${(100 * res.doubletRate).toFixed(2)}% of ${ds.counts.nCells} cells`,
      );
      expect(res.thresholdFound).toBe(true);
      expect(res.doubletRate).toBeGreaterThan(0.002);
      expect(res.doubletRate).toBeLessThan(0.12);
    },
    300_000, // five simulations (2,638 cells): ~12 CPU s on an idle machine
  );

  it('rejects unknown options', async () => {
    const { columns } = synthClusters({
      nCells: 60,
      nGenes: 50,
      nTypes: 2,
      markersPerType: 5,
      fold: 5,
      meanLib: 500,
      seed: 1,
    });
    await expect(scrublet(fromDenseColumns(columns, 50), { rate: 0.1 } as never)).rejects.toThrow(
      /unknown option 'rate'/,
    );
  });
});

describe('thresholdMinimum', () => {
  it('splits a bimodal sample between its modes and gives up without two modes', () => {
    const rng = new Random(2);
    const bimodal = Float64Array.from({ length: 4000 }, (_, i) => (i % 4 === 0 ? 8 : 2) + 0.5 * rng.normal());
    const t = thresholdMinimum(bimodal);
    expect(t).toBeGreaterThan(3.5);
    expect(t).toBeLessThan(6.5);
    // value v (0..255) repeated 256 − v times: a strictly decreasing 256-bin histogram, one maximum
    const decreasing = Array.from({ length: 256 }, (_, v) => new Array<number>(256 - v).fill(v)).flat();
    expect(thresholdMinimum(decreasing)).toBeUndefined();
    expect(thresholdMinimum(new Float64Array(100).fill(3))).toBeUndefined();
  });
});
