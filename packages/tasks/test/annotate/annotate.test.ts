import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { readH5adBytes } from '@cellcloud/formats';
import { SHARED_DATA_DIR, sharedData } from '@cellcloud/testkit';
import { nodeResourceReader } from '@cellcloud/engine/cli/node-resources';
import { isTaskError, MemorySink, resultHandleFromDataset } from '@cellcloud/engine/tasks/kit';
import type { ResultHandle } from '@cellcloud/engine/tasks/kit';
import { definition as annotateTask } from '../../src/annotate/contract';
import { engine as annotateEngine } from '../../src/annotate/engine';
import { parseMarkerUpload } from '../../src/annotate/engine/marker-lists';
import { deN, pruneByDelta } from '../../src/annotate/engine/singler';
import { agreement, parseLabels } from './annotate-agreement';

const H5AD = sharedData('pbmc3k/pbmc3k.h5ad');
const LABELS = sharedData('pbmc3k/pbmc3k_seurat_labels.csv');
const REFS = sharedData('annotation_refs/numbat_ref_hca_profiles.csv.gz');
const resources = nodeResourceReader(SHARED_DATA_DIR);

async function annotate(result: ResultHandle, params: object, uploads?: Record<string, Uint8Array>) {
  const sink = new MemorySink();
  const summary = await annotateEngine.run({
    result,
    params: annotateTask.params.parse(params),
    onProgress: () => {},
    sink,
    resources,
    uploads,
  });
  return { summary, sink };
}

async function taskErrorKey(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    if (isTaskError(e)) return e.key;
    throw e;
  }
  return 'no error';
}

describe('annotation building blocks', () => {
  it('SingleR de.n follows round(500·(2/3)^log2(n))', () => {
    expect(deN(2)).toBe(333);
    expect(deN(12)).toBe(117);
  });

  it('pruning flags calls whose delta is an outlier below their label’s median', () => {
    const call = new Uint16Array([0, 0, 0, 0, 0, 0, 1, 1]);
    const delta = new Float32Array([0.2, 0.21, 0.19, 0.2, 0.22, 0.01, 0.3, 0.31]);
    expect(Array.from(pruneByDelta(call, delta, 2, 3))).toEqual([0, 0, 0, 0, 0, 1, 0, 0]);
  });

  it('reads a user marker csv (header optional, several genes per row, negatives)', () => {
    const types = parseMarkerUpload(
      new TextEncoder().encode('cell type,gene\nT,CD3E\nT,"CD3D,-MS4A1"\nB\tMS4A1\n'.replace('B\t', 'B,')),
    );
    expect(types).toEqual([
      { name: 'T', positive: ['CD3E', 'CD3D'], negative: ['MS4A1'] },
      { name: 'B', positive: ['MS4A1'], negative: [] },
    ]);
  });
});

describe.skipIf(!H5AD || !LABELS || !REFS)('automatic annotation of pbmc3k (Seurat tutorial labels)', () => {
  let result: ResultHandle;
  let truth: Map<string, string>;
  beforeAll(async () => {
    const ds = await readH5adBytes(new Uint8Array(await readFile(H5AD!)), 'pbmc3k.h5ad');
    // the tutorial's own label column is dropped so the task cannot see it
    delete ds.cells.columns['label'];
    result = resultHandleFromDataset(ds, { species: 'human' });
    truth = parseLabels(await readFile(LABELS!, 'utf8'));
  });

  it('annot_auto agrees with the tutorial ≥ 75 % on the 9 types and ≥ 97 % on coarse types', async () => {
    const { summary, sink } = await annotate(result, {
      species: 'human',
      tissue: 'PBMC',
      clusterKey: 'seurat_cluster',
    });
    expect(summary.reference).toBe('hca');
    const col = sink.cells.get('annot_auto');
    expect(col?.kind).toBe('categorical');
    const a = agreement(result.barcodes, col!.values as string[], truth);
    expect(a.cells).toBe(2638);
    expect(a.fine).toBeGreaterThanOrEqual(0.75);
    expect(a.coarse).toBeGreaterThanOrEqual(0.97);
    // per-cluster majority, score and tables are written
    expect(summary.clusters).toHaveLength(9);
    expect(sink.cells.get('annot_auto_score')?.kind).toBe('numeric');
    expect(sink.tables.get('cells')?.columns).toEqual([
      'barcode',
      'cluster',
      'annot_auto',
      'annot_auto_major',
      'score',
      'delta',
      'pruned',
    ]);
    expect(sink.tables.get('clusters')?.rows).toHaveLength(9);
    expect(summary.clusters.map((c) => c.label)).toContain('CD4 naive T');
    expect(Object.keys(sink.datas.get('markers') as object)).toContain('NK');
  });

  it('T-cell subtype annotation separates CD4 from CD8 and naive from memory', async () => {
    // the tutorial clusters whose cells are mostly T cells (cluster codes of the file are not the tutorial's order)
    const seurat = result.obs('seurat_cluster')!.values as string[];
    const tClusters = [...new Set(seurat)].filter((k) => {
      const inK = result.barcodes.filter((_, c) => seurat[c] === k);
      return inK.filter((b) => /CD4 T|CD8 T/.test(truth.get(b)!)).length > inK.length / 2;
    });
    expect(tClusters).toHaveLength(3);
    const { summary, sink } = await annotate(result, {
      mode: 'subtype',
      species: 'human',
      lineage: 't_cells',
      clusterKey: 'seurat_cluster',
      subset: [{ key: 'seurat_cluster', values: tClusters }],
    });
    expect(summary.levels).toEqual(['annot_sub', 'annot_sub2']);
    const sub = sink.cells.get('annot_sub')!.values as string[];
    const count = (t: string, l: string) =>
      result.barcodes.filter((b, c) => truth.get(b) === t && sub[c] === l).length;
    const total = (t: string) =>
      result.barcodes.filter((b, c) => truth.get(b) === t && sub[c] !== 'other').length;
    expect(count('Naive CD4 T', 'CD4 naive T') / total('Naive CD4 T')).toBeGreaterThan(0.8);
    expect(count('Memory CD4 T', 'CD4 memory T') / total('Memory CD4 T')).toBeGreaterThan(0.8);
    const cd8 = count('CD8 T', 'CD8 effector T') + count('CD8 T', 'CD8 naive T');
    expect(cd8 / total('CD8 T')).toBeGreaterThan(0.8);
  });

  it('refuses without species, without tissue, and for a species other than human/mouse (the product messages)', async () => {
    expect(await taskErrorKey(annotate(result, { tissue: 'blood', clusterKey: 'seurat_cluster' }))).toBe(
      'annotate.speciesRequired',
    );
    expect(await taskErrorKey(annotate(result, { species: 'human', clusterKey: 'seurat_cluster' }))).toBe(
      'annotate.tissueRequired',
    );
    expect(
      await taskErrorKey(
        annotate(result, { species: 'zebrafish', tissue: 'blood', clusterKey: 'seurat_cluster' }),
      ),
    ).toBe('common.speciesHumanMouse');
    const upload = { markerFile: new TextEncoder().encode('Alien,NOTAGENE1\nGhost,NOTAGENE2\n') };
    expect(
      await taskErrorKey(
        annotate(
          result,
          { species: 'human', tissue: 'blood', clusterKey: 'seurat_cluster', markerSource: 'upload' },
          upload,
        ),
      ),
    ).toBe('annotate.noMatchingTypes');
  });
});
