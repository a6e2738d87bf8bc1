import { writeArtifacts } from '@cellcloud/formats/write-artifacts';
import { writeH5ad } from '@cellcloud/formats/write-h5ad';
import type { CountMatrix } from '@cellcloud/formats/matrix';
import type { DegTaskView } from '@cellcloud/contracts/explore-deg';
import { jobsRepo } from '../../src/db/repos/jobs';
import type { TestServer } from './harness';

export const DEG_GENES = ['CD3D', 'MS4A1', 'LYZ', 'ACTB', 'GAPDH'];

/**
 * A completed job of `userId` with a REAL `analysis.h5ad` and explorer artifacts: `nPerCluster`
 * cells in each of clusters "0","1","2"; gene k (k < 3) is high in cluster k, ACTB/GAPDH flat;
 * `extraGenes` noisy genes (every 7th a little higher in one cluster) make it big enough to re-cluster.
 */
export async function completedJobWithH5ad(s: TestServer, userId: string, nPerCluster = 10, extraGenes = 0) {
  const job = await jobsRepo.insert(s.ctx.db, {
    userId,
    jobName: 'deg_test',
    kind: 'custom',
    species: 'Homo sapiens',
    sampleIds: [],
    params: {},
    draft: {},
    cacheKey: null,
  });
  const nCells = nPerCluster * 3;
  const names = [...DEG_GENES, ...Array.from({ length: extraGenes }, (_, i) => `G${i}`)];
  let seed = 7;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const indptr = new Float64Array(nCells + 1);
  const indices: number[] = [];
  const data: number[] = [];
  const cluster: string[] = [];
  for (let c = 0; c < nCells; c++) {
    const k = Math.floor(c / nPerCluster);
    cluster.push(String(k));
    for (let g = 0; g < names.length; g++) {
      const noise = Math.floor(rand() * (g % 7 === k ? 12 : 4));
      const v = g < 3 ? (g === k ? 20 + (c % 5) : c % 3 === 0 ? 1 : 0) : g < 5 ? 5 + (c % 2) : noise;
      if (v > 0) {
        indices.push(g);
        data.push(v);
      }
    }
    indptr[c + 1] = indices.length;
  }
  const counts: CountMatrix = {
    nGenes: names.length,
    nCells,
    indptr,
    indices: Uint32Array.from(indices),
    data: Float32Array.from(data),
  };
  const genes = { ids: names.map((g) => `ENSG_${g}`), symbols: names };
  const obs = { cluster: { kind: 'categorical' as const, values: cluster } };
  const prefix = `results/${job.id}/`;
  await writeArtifacts(
    {
      engineVersion: 'test',
      species: 'Homo sapiens',
      genes,
      nCells,
      layers: { counts },
      embeddings: { umap: { dims: 2, values: new Float32Array(nCells * 2).map((_, i) => i) } },
      obs,
    },
    { write: (p, bytes) => s.ctx.storage.put(`${prefix}artifacts/${p}`, bytes) },
  );
  await s.ctx.storage.put(
    `${prefix}analysis.h5ad`,
    await writeH5ad({ counts, genes, barcodes: cluster.map((_, i) => `cell${i}`), obs }),
  );
  await jobsRepo.setStatus(s.ctx.db, job.id, ['submitted'], 'completed');
  return job;
}

/** Polls the DE tasks of the dataset at `base` (`/api/user_datasets/<id>`) until task `id` is no longer running. */
export async function waitDegTask(
  s: TestServer,
  token: string,
  base: string,
  id: string,
): Promise<DegTaskView> {
  const end = Date.now() + 60_000;
  while (Date.now() < end) {
    const list = await s.request('GET', `${base}/deg_tasks`, { token });
    const t = (list.body.data as DegTaskView[]).find((x) => x.id === id);
    if (t && t.status !== 'running') return t;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`task ${id} still running`);
}
