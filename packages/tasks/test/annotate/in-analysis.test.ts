import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { runAnalysis } from '@cellcloud/engine';
import { nodeResourceReader } from '@cellcloud/engine/cli/node-resources';
import { readH5adBytes } from '@cellcloud/formats';
import { hasSharedData, SHARED_DATA_DIR, sharedData } from '@cellcloud/testkit';
import { annotateAnalysisResult } from '../../src/annotate/engine/in-analysis';

/** The first `n` cells of a dataset (counts and barcodes only). */
function firstCells(ds: Awaited<ReturnType<typeof readH5adBytes>>, n: number) {
  const m = ds.counts;
  const end = m.indptr[n]!;
  return {
    ...ds,
    counts: {
      nGenes: m.nGenes,
      nCells: n,
      indptr: m.indptr.slice(0, n + 1),
      indices: m.indices.slice(0, end),
      data: m.data.slice(0, end),
    },
    cells: { barcodes: ds.cells.barcodes.slice(0, n), columns: {} },
    embeddings: {},
  };
}

describe.skipIf(!hasSharedData('pbmc3k/pbmc3k.h5ad'))(
  "the wizard's automatic annotation (annotate in-analysis)",
  () => {
    it('without a tissue it is skipped with its message (what annotation.json holds); with one, annot_auto joins the obs', async () => {
      const file = sharedData('pbmc3k/pbmc3k.h5ad')!;
      const ds = await readH5adBytes(new Uint8Array(await readFile(file)), 'pbmc3k.h5ad');
      const result = await runAnalysis([{ name: 'pbmc3k', dataset: firstCells(ds, 600) }], {
        doubletDetectionAndRemoval: false,
        expressedGeneRange: { state: 'manual', range: [200, 5000] },
      });
      const resources = nodeResourceReader(SHARED_DATA_DIR);
      result.params = { ...result.params, chooseAnnotationType: 'auto', referenceTissue: '' };
      const failed = await annotateAnalysisResult(result, resources);
      expect(failed?.failure?.key).toBe('task.annotate.tissueRequired');
      expect(JSON.parse(new TextDecoder().decode(failed!.artifact!))).toEqual({
        failure: { key: 'annotate.tissueRequired', params: {} },
      });
      expect(result.obs.annot_auto).toBeUndefined();
      result.params = { ...result.params, referenceTissue: 'PBMC' };
      const done = await annotateAnalysisResult(result, resources);
      expect(done?.summary?.reference).toBe('hca');
      expect(result.obs.annot_auto?.kind).toBe('categorical');
      expect(Object.keys(JSON.parse(new TextDecoder().decode(done!.artifact!)))).toEqual([
        'summary',
        'markers',
        'dotplot',
        'clusterLabels',
      ]);
    });
  },
);
