import { beforeAll, describe, expect, it } from 'vitest';
import { readDataset } from '@cellcloud/formats';
import { filesBundle } from '@cellcloud/formats/node-sources';
import type { Dataset } from '@cellcloud/formats/matrix';
import { hasSharedData, sharedData } from '@cellcloud/testkit';
import { lisi } from '../src/methods/lisi';
import { AnalysisRunner } from '../src/runner';
import { subsetCells } from '../src/sparse';

const DIR = 'ifnb_kang2018_subset';
const FILES = ['matrix.mtx.gz', 'genes.tsv.gz', 'barcodes.tsv.gz'];

/** The ctrl and stim cells of the Kang 2018 subset as two samples (barcodes carry the batch). */
function splitBatches(ds: Dataset): { name: string; dataset: Dataset }[] {
  return ['ctrl', 'stim'].map((batch) => {
    const cells = ds.cells.barcodes.flatMap((b, i) => (b.startsWith(`${batch}_`) ? [i] : []));
    return {
      name: batch,
      dataset: {
        ...ds,
        counts: subsetCells(ds.counts, cells),
        cells: { barcodes: cells.map((c) => ds.cells.barcodes[c]), columns: {} },
      },
    };
  });
}

const mean = (a: ArrayLike<number>) => Array.from(a).reduce((x, y) => x + y, 0) / a.length;

describe.skipIf(!hasSharedData(...FILES.map((f) => `${DIR}/${f}`)))(
  'two-batch IFN-β PBMCs through the pipeline',
  () => {
    const runner = new AnalysisRunner();
    let samples: { name: string; dataset: Dataset }[];
    const base = { doubletDetectionAndRemoval: false, pcValue: 20, clusterResolution: 0.5 };

    beforeAll(async () => {
      const ds = await readDataset(
        await filesBundle(
          DIR,
          FILES.map((f) => sharedData(`${DIR}/${f}`) as string),
        ),
      );
      samples = splitBatches(ds);
    }, 120_000);

    /** Mean iLISI (batch mixing) and the cLISI of monocytes vs T cells (marker-defined) in the graph space. */
    function scores() {
      const { embedding, dims } = runner.batch.value;
      const data = runner.ambient.value;
      const n = data.counts.nCells;
      const iLisi = mean(lisi(embedding, n, dims, data.sampleOfCell));
      const sym = data.geneSymbols;
      const g = (name: string) => sym.indexOf(name);
      const [cd14, lyz, cd3d] = [g('CD14'), g('LYZ'), g('CD3D')];
      const type = new Int32Array(n).fill(-1);
      const norm = runner.normalize.value;
      for (let c = 0; c < n; c++) {
        let mono = 0;
        let t = 0;
        for (let k = norm.indptr[c]; k < norm.indptr[c + 1]; k++) {
          if (norm.indices[k] === cd14 || norm.indices[k] === lyz) mono += norm.data[k];
          if (norm.indices[k] === cd3d) t += norm.data[k];
        }
        if (mono > 3 && t === 0) type[c] = 0;
        else if (t > 1 && mono === 0) type[c] = 1;
      }
      const typed = Array.from(type.keys()).filter((c) => type[c] >= 0);
      const sub = new Float64Array(typed.length * dims);
      typed.forEach((c, i) => sub.set(embedding.subarray(c * dims, (c + 1) * dims), i * dims));
      const cLisi = mean(
        lisi(
          sub,
          typed.length,
          dims,
          typed.map((c) => type[c]),
        ),
      );
      return { iLisi, cLisi, typed: typed.length };
    }

    it('mixes the batches after Harmony while monocytes and T cells stay apart', async () => {
      await runner.run(samples, base);
      const before = scores();
      await runner.run(undefined, { ...base, batchEffectRemoval: { enabled: true, method: 'harmony' } });
      expect(runner.lastComputed[0]).toBe('batch');
      const after = scores();
      console.info(
        `ifnb iLISI ${before.iLisi.toFixed(2)} → ${after.iLisi.toFixed(2)}; cLISI ${before.cLisi.toFixed(2)} → ${after.cLisi.toFixed(2)} (${after.typed} typed cells)`,
      );
      expect(after.typed).toBeGreaterThan(300);
      expect(after.iLisi).toBeGreaterThan(before.iLisi + 0.2);
      expect(after.iLisi).toBeGreaterThan(1.5);
      expect(after.cLisi).toBeLessThan(1.1);
    }, 600_000);

    it('runs the optional steps: MNN, DecontX per sample, cell-cycle regression', async () => {
      const before = scores();
      await runner.run(undefined, {
        ...base,
        batchEffectRemoval: { enabled: true, method: 'mnn' },
        ambientRnaRemoval: { enabled: true },
        removeCellCycleEffects: true,
      });
      expect(runner.lastComputed.slice(0, 3)).toEqual(['ambient', 'normalize', 'hvg']);
      const amb = runner.ambient.value;
      expect(amb.ambient.map((a) => a.sample)).toEqual(['ctrl', 'stim']);
      for (const a of amb.ambient) {
        expect(a.removed).toBe(true);
        expect(a.medianContamination).toBeGreaterThanOrEqual(0);
        expect(a.medianContamination).toBeLessThan(0.5);
      }
      expect(amb.contamination?.length).toBe(amb.counts.nCells);
      const cc = runner.cellCycle.value;
      expect(cc.scores?.phase.length).toBe(amb.counts.nCells);
      expect(new Set(cc.scores?.phase)).toEqual(new Set(['G1', 'S', 'G2M']));
      expect(cc.regressed?.values.length).toBe(amb.counts.nCells * (cc.regressed?.nGenes ?? 0));
      expect(runner.batch.value.method).toBe('mnn');
      const after = scores();
      console.info(`ifnb with MNN: iLISI ${after.iLisi.toFixed(2)}, cLISI ${after.cLisi.toFixed(2)}`);
      expect(after.iLisi).toBeGreaterThan(1.3);
      expect(after.cLisi).toBeLessThan(1.15);
      expect(before.iLisi).toBeGreaterThan(1.3);
      runner.free();
    }, 900_000);
  },
);
