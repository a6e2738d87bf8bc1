import { readFile } from 'node:fs/promises';
import type { DegRow } from '@cellcloud/contracts/artifacts';
import type { DegTaskView } from '@cellcloud/contracts/explore-deg';
import { TASK_API, type TaskView } from '@cellcloud/contracts/tasks/api';
import { markersCsv } from '@cellcloud/engine';
import type { CellColumn } from '@cellcloud/formats/matrix';
import { readH5adBytes } from '@cellcloud/formats/read-h5ad';
import { writeArtifacts } from '@cellcloud/formats/write-artifacts';
import { sharedData } from '@cellcloud/testkit';
import { jobsRepo } from '../../src/db/repos/jobs';
import { waitDegTask } from './explore-deg';
import type { TestServer } from './harness';

export const PBMC_H5AD = sharedData('pbmc3k/pbmc3k.h5ad');

let parsed: Promise<{ bytes: Uint8Array; ds: Awaited<ReturnType<typeof readH5adBytes>> }> | undefined;

/** pbmc3k.h5ad read and parsed once per test file (each caller stores its own copy). */
function pbmcDataset() {
  parsed ??= (async () => {
    const bytes = new Uint8Array(await readFile(PBMC_H5AD!));
    return { bytes, ds: await readH5adBytes(bytes, 'pbmc3k.h5ad') };
  })();
  return parsed;
}

/**
 * The real pbmc3k data (2,638 cells) stored as a completed result of `userId`, as the pipeline
 * stores it: analysis.h5ad and explorer artifacts with the pipeline's obs names (cluster,
 * Sample ID, n_genes_by_counts, total_counts, pct_counts_mito, plus the tutorial `label`) and
 * its UMAP. Returns the job id, its storage prefix, the cells' labels and barcodes.
 */
export async function pbmcResult(s: TestServer, userId: string, jobName = 'pbmc3k_result') {
  const { bytes, ds } = await pbmcDataset();
  const job = await jobsRepo.insert(s.ctx.db, {
    userId,
    jobName,
    kind: 'custom',
    species: 'Homo sapiens',
    sampleIds: [],
    params: {},
    draft: {},
    cacheKey: null,
  });
  const prefix = `results/${job.id}/`;
  const col = (k: string) => ds.cells.columns[k]!;
  const obs: Record<string, CellColumn> = {
    cluster: { kind: 'categorical', values: Array.from(col('seurat_cluster').values, String) },
    'Sample ID': { kind: 'categorical', values: ds.cells.barcodes.map(() => 'pbmc3k') },
    n_genes_by_counts: col('nFeature_RNA'),
    total_counts: col('nCount_RNA'),
    pct_counts_mito: col('percent_mt'),
    label: col('label'),
  };
  await writeArtifacts(
    {
      engineVersion: 'test',
      species: 'Homo sapiens',
      genes: ds.genes,
      nCells: ds.counts.nCells,
      layers: { counts: ds.counts },
      embeddings: { umap: ds.embeddings.X_umap! },
      obs,
    },
    { write: (p, b) => s.ctx.storage.put(`${prefix}artifacts/${p}`, b) },
  );
  await s.ctx.storage.put(`${prefix}analysis.h5ad`, bytes);
  await jobsRepo.setStatus(s.ctx.db, job.id, ['submitted'], 'completed');
  const labels = (col('label') as { values: string[] }).values;
  return { id: job.id, prefix, nCells: ds.counts.nCells, labels, barcodes: ds.cells.barcodes };
}

/**
 * pbmcResult (job `pbmc3k_figures`) with the cluster markers (computed by the explorer's DE job:
 * markers/cluster.json + markers.csv), then a saved DE comparison (B vs the rest) and a completed
 * cell-score task, both through the API.
 */
export async function pbmcAnalysisWithTask(s: TestServer, userId: string, token: string) {
  const { id, prefix, nCells } = await pbmcResult(s, userId, 'pbmc3k_figures');
  const job = { id };
  const base = `/api/user_datasets/${job.id}`;
  const deg = async (body: object): Promise<DegTaskView> => {
    const r = await s.request('POST', `${base}/calculate_deg_task`, { token, body });
    if (r.status !== 200) throw new Error(r.raw);
    const done = await waitDegTask(s, token, base, (r.body.data as DegTaskView).id);
    if (done.status !== 'completed') throw new Error(JSON.stringify(done));
    return done;
  };
  // the pipeline's marker table: cluster markers as the explorer's DE computes them
  const markers = await deg({ mode: 'cluster-markers', grouping: 'cluster' });
  const rows = (await s.request('GET', `${base}/deg_tasks/${markers.id}/result`, { token }))
    .body as unknown as DegRow[];
  const manifestKey = `${prefix}artifacts/manifest.json`;
  const manifest = JSON.parse(new TextDecoder().decode(await s.ctx.storage.getBytes(manifestKey)));
  manifest.markers = [{ groupBy: 'cluster', file: 'markers/cluster.json' }];
  await s.ctx.storage.put(
    `${prefix}artifacts/markers/cluster.json`,
    new TextEncoder().encode(JSON.stringify(rows)),
  );
  await s.ctx.storage.put(manifestKey, new TextEncoder().encode(JSON.stringify(manifest)));
  await s.ctx.storage.put(`${prefix}markers.csv`, new TextEncoder().encode(markersCsv(rows)));
  const compare = await deg({
    mode: 'compare',
    groupA: { from: 'labels', key: 'label', labels: ['B'] },
    groupB: { from: 'rest' },
  });

  const task = await s.request('POST', TASK_API.list(job.id), {
    token,
    body: {
      task: 'cell-score',
      params: { name: 'T' },
      uploads: {
        geneSet: {
          fileName: 't.csv',
          base64: Buffer.from('CD3D\nCD3E\nCD2\nIL7R\nLCK\nCD3G\n').toString('base64'),
        },
      },
    },
  });
  if (task.status !== 200) throw new Error(task.raw);
  const taskId = (task.body.data as TaskView).id;
  const end = Date.now() + 150_000;
  let view: TaskView | undefined;
  while (Date.now() < end) {
    view = (await s.request('GET', TASK_API.one(job.id, taskId), { token })).body.data as TaskView;
    if (view.status === 'completed' || view.status === 'failed') break;
    await new Promise((r) => setTimeout(r, 250));
  }
  if (view?.status !== 'completed') throw new Error(`cell-score did not complete: ${JSON.stringify(view)}`);
  return { id: job.id, nCells, markerRows: rows.length, compare, markers, taskId };
}
