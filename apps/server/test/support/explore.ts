import type { DegRow } from '@cellcloud/contracts/artifacts';
import { writeArtifacts } from '@cellcloud/formats/write-artifacts';
import { writeH5ad } from '@cellcloud/formats/write-h5ad';
import { jobsRepo } from '../../src/db/repos/jobs';
import type { TestServer } from './harness';

/**
 * A job of `userId` whose published results hold a 4-cell × 3-gene explorer artifact set
 * (cluster labels 0,1,1,0), completed unless `complete: false`.
 */
export async function completedJobWithArtifacts(
  s: TestServer,
  userId: string,
  opts: { complete?: boolean; markers?: Record<string, DegRow[]> } = {},
) {
  const job = await jobsRepo.insert(s.ctx.db, {
    userId,
    jobName: 'explore_test',
    kind: 'custom',
    species: 'Homo sapiens',
    sampleIds: [],
    params: {},
    draft: {},
    cacheKey: null,
  });
  // genes × cells, CSC by cell: cell j has genes indices[indptr[j]..indptr[j+1]]
  const counts = {
    nGenes: 3,
    nCells: 4,
    indptr: Float64Array.from([0, 1, 3, 3, 4]),
    indices: Uint32Array.from([0, 0, 2, 2]),
    data: Float32Array.from([5, 1, 7, 2]),
  };
  await writeArtifacts(
    {
      engineVersion: 'test',
      species: 'Homo sapiens',
      genes: { ids: ['G1', 'G2', 'G3'], symbols: ['CD3D', 'MS4A1', 'LYZ'] },
      nCells: 4,
      layers: { counts },
      embeddings: { umap: { dims: 2, values: Float32Array.from([0, 0, 1, 1, 2, 2, 3, 3]) } },
      obs: {
        cluster: { kind: 'categorical', values: ['0', '1', '1', '0'] },
        total_counts: { kind: 'numeric', values: Float64Array.from([5, 8, 0, 2]) },
      },
      ...(opts.markers ? { markers: opts.markers } : {}),
    },
    { write: (path, bytes) => s.ctx.storage.put(`results/${job.id}/artifacts/${path}`, bytes) },
  );
  await s.ctx.storage.put(
    `results/${job.id}/analysis.h5ad`,
    new TextEncoder().encode('HDF5-placeholder-bytes'),
  );
  if (opts.complete !== false) await jobsRepo.setStatus(s.ctx.db, job.id, ['submitted'], 'completed');
  return job;
}

/**
 * Replaces the placeholder analysis.h5ad of `completedJobWithArtifacts` with a real 4-cell × 3-gene
 * file (the same counts, cluster and total_counts), for tests that export or read it.
 */
export async function storeAnalysisH5ad(s: TestServer, jobId: string, umap = false) {
  await s.ctx.storage.put(
    `results/${jobId}/analysis.h5ad`,
    await writeH5ad({
      counts: {
        nGenes: 3,
        nCells: 4,
        indptr: Float64Array.from([0, 1, 3, 3, 4]),
        indices: Uint32Array.from([0, 0, 2, 2]),
        data: Float32Array.from([5, 1, 7, 2]),
      },
      genes: { ids: ['G1', 'G2', 'G3'], symbols: ['CD3D', 'MS4A1', 'LYZ'] },
      barcodes: ['AAA-1', 'CCC-1', 'GGG-1', 'TTT-1'],
      obs: {
        cluster: { kind: 'categorical', values: ['0', '1', '1', '0'] },
        total_counts: { kind: 'numeric', values: Float64Array.from([5, 8, 0, 2]) },
      },
      ...(umap ? { obsm: { X_umap: { dims: 2, values: Float32Array.from([0, 0, 1, 1, 2, 2, 3, 3]) } } } : {}),
    }),
  );
}
