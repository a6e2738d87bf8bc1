import type { Queryable } from '../client';

/** A row of `explore_deg_tasks` (migration 0301). */
export interface DegTaskRow {
  id: string;
  dataset_id: string;
  user_id: string;
  mode: 'cluster-markers' | 'compare';
  grouping: string | null;
  labels: string[];
  cells_a: number | null;
  cells_b: number | null;
  status: 'running' | 'completed' | 'failed';
  message: string | null;
  created_at: Date;
  finished_at: Date | null;
}

export const exploreDegTasksRepo = {
  /** Fails running tasks of the user older than `staleSeconds` (their worker died). */
  async expireStale(q: Queryable, userId: string, staleSeconds: number): Promise<void> {
    await q.query(
      `UPDATE explore_deg_tasks SET status = 'failed', message = 'timed out', finished_at = now()
       WHERE user_id = $1 AND status = 'running' AND created_at < now() - ($2::int * interval '1 second')`,
      [userId, staleSeconds],
    );
  },

  /** Inserts a running task, or returns undefined when the user already has one running. */
  async insertRunning(
    q: Queryable,
    t: {
      datasetId: string;
      userId: string;
      mode: DegTaskRow['mode'];
      grouping: string | null;
      labels: string[];
      cellsA: number | null;
      cellsB: number | null;
    },
  ): Promise<DegTaskRow | undefined> {
    const rows = await q.query<DegTaskRow>(
      `INSERT INTO explore_deg_tasks (dataset_id, user_id, mode, grouping, labels, cells_a, cells_b)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (user_id) WHERE status = 'running' DO NOTHING RETURNING *`,
      [t.datasetId, t.userId, t.mode, t.grouping, JSON.stringify(t.labels), t.cellsA, t.cellsB],
    );
    return rows[0];
  },

  async get(q: Queryable, datasetId: string, id: string): Promise<DegTaskRow | undefined> {
    return (
      await q.query<DegTaskRow>('SELECT * FROM explore_deg_tasks WHERE dataset_id = $1 AND id = $2', [
        datasetId,
        id,
      ])
    )[0];
  },

  async list(q: Queryable, datasetId: string): Promise<DegTaskRow[]> {
    return q.query<DegTaskRow>(
      'SELECT * FROM explore_deg_tasks WHERE dataset_id = $1 ORDER BY created_at DESC LIMIT 200',
      [datasetId],
    );
  },

  async finish(
    q: Queryable,
    id: string,
    status: 'completed' | 'failed',
    message: string | null,
  ): Promise<DegTaskRow | undefined> {
    return (
      await q.query<DegTaskRow>(
        `UPDATE explore_deg_tasks SET status = $2, message = $3, finished_at = now() WHERE id = $1 AND status = 'running' RETURNING *`,
        [id, status, message],
      )
    )[0];
  },
};

/** Cluster-gene state of a subset (docs/product/states.md#cluster-genes): running → done | failed; merges make it stale. */
export async function setSubsetClusterGenes(
  q: Queryable,
  datasetId: string,
  subsetId: string,
  state: 'running' | 'done' | 'failed',
): Promise<void> {
  await q.query(
    'UPDATE explore_subsets SET cluster_genes = $3, updated_at = clock_timestamp() WHERE dataset_id = $1 AND id = $2',
    [datasetId, subsetId, state],
  );
}
