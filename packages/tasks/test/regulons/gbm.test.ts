import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { readH5adBytes } from '@cellcloud/formats';
import { sharedData } from '@cellcloud/testkit';
import { Random } from '@cellcloud/engine/methods/random';
import { binFeatures, GRNBOOST2 } from '../../src/regulons/engine/binning';
import { boostImportances } from '../../src/regulons/engine/gbm';
import { resultHandleFromDataset } from '@cellcloud/engine/tasks/kit';

const H5AD = sharedData('pbmc3k/pbmc3k.h5ad');
const TFS = [
  'SPI1',
  'CEBPB',
  'PAX5',
  'EBF1',
  'TBX21',
  'EOMES',
  'IRF8',
  'STAT1',
  'KLF4',
  'TCF7',
  'LEF1',
  'GATA3',
];

describe.skipIf(!H5AD)('GRNBoost2-style importances (pbmc3k TF expression)', () => {
  it('a target built from two TFs ranks them at the top; the same seed gives the same importances', async () => {
    const ds = await readH5adBytes(new Uint8Array(await readFile(H5AD!)), 'pbmc3k.h5ad');
    const result = resultHandleFromDataset(ds, { species: 'human' });
    const norm = result.normalized();
    const cells = Array.from({ length: 500 }, (_, i) => i * 5);
    const features = TFS.map((tf) => {
      const g = result.geneIndex(tf);
      const v = new Float32Array(cells.length);
      cells.forEach((c, j) => {
        for (let k = norm.indptr[c]!; k < norm.indptr[c + 1]!; k++)
          if (norm.indices[k] === g) v[j] = norm.data[k]!;
      });
      return v;
    });
    // planted: target = 2·SPI1 + 1·TBX21 + noise (real TF values, seeded noise)
    const rng = new Random(9);
    const spi1 = TFS.indexOf('SPI1');
    const tbx21 = TFS.indexOf('TBX21');
    const y = cells.map((_, j) => 2 * features[spi1]![j]! + features[tbx21]![j]! + 0.1 * rng.normal());
    const bins = binFeatures(features, GRNBOOST2.maxBins);
    const params = { ...GRNBOOST2, maxFeatures: 0.5 };
    const a = boostImportances(bins, y, params, 1);
    const order = Array.from(a.importances.keys()).sort((p, q) => a.importances[q]! - a.importances[p]!);
    console.log(
      'importances:',
      order
        .slice(0, 4)
        .map((f) => `${TFS[f]} ${a.importances[f]!.toFixed(1)}`)
        .join(', '),
      `(${a.stages} stages)`,
    );
    // SPI1 first; TBX21 among the first three (CEBPB, co-expressed with SPI1 in monocytes, can take a share)
    expect(order[0]).toBe(spi1);
    expect(order.slice(0, 3)).toContain(tbx21);
    expect(a.stages).toBeGreaterThan(25);
    const b = boostImportances(bins, y, params, 1);
    expect(Array.from(b.importances)).toEqual(Array.from(a.importances));
    // importances sum to the number of stages (normalised gain × stages, as arboreto)
    expect(a.importances.reduce((s, v) => s + v, 0)).toBeCloseTo(a.stages, 8);
    // node histograms from the node's cells or from the TFs' nonzero cells: the same trees
    for (const histogram of ['dense', 'sparse'] as const) {
      const c = boostImportances(bins, y, { ...params, histogram }, 1);
      expect(c.stages).toBe(a.stages);
      expect(Array.from(c.importances)).toEqual(Array.from(a.importances));
    }
    // the excluded feature (the target's own TF) never gets importance
    const d = boostImportances(bins, y, params, 1, spi1);
    expect(d.importances[spi1]).toBe(0);
    expect(d.importances.reduce((s, v) => s + v, 0)).toBeCloseTo(d.stages, 8);
  });
});
