import type { Queryable } from '../client';

/** A row of `explore_subsets` (per-cell codes live in storage, see migration 0300). */
export interface SubsetRow {
  id: string;
  dataset_id: string;
  user_id: string;
  name: string;
  source_key: string | null;
  labels: string[];
  colours: (string | null)[];
  counts: number[];
  n_cells: number;
  cluster_genes: 'none' | 'stale' | 'running' | 'failed' | 'done';
  child_tasks: number;
  /** bumped by every change (migration 0751) */
  version: number;
  notes: Record<string, { note: string; markers: string[] }>;
  /** author of the current version */
  updated_by: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface SubsetFields {
  labels: string[];
  colours: (string | null)[];
  counts: number[];
  nCells: number;
}

const touch = 'updated_at = clock_timestamp()';

export const exploreSubsetsRepo = {
  async insert(
    q: Queryable,
    s: { datasetId: string; userId: string; name: string; sourceKey: string | null } & SubsetFields,
  ): Promise<SubsetRow> {
    const [row] = await q.query<SubsetRow>(
      `INSERT INTO explore_subsets (dataset_id, user_id, name, source_key, labels, colours, counts, n_cells, updated_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $2) RETURNING *`,
      [
        s.datasetId,
        s.userId,
        s.name,
        s.sourceKey,
        JSON.stringify(s.labels),
        JSON.stringify(s.colours),
        JSON.stringify(s.counts),
        s.nCells,
      ],
    );
    return row!;
  },

  async list(q: Queryable, datasetId: string): Promise<SubsetRow[]> {
    return q.query<SubsetRow>(
      'SELECT * FROM explore_subsets WHERE dataset_id = $1 ORDER BY created_at, name',
      [datasetId],
    );
  },

  async get(q: Queryable, datasetId: string, id: string): Promise<SubsetRow | undefined> {
    return (
      await q.query<SubsetRow>('SELECT * FROM explore_subsets WHERE dataset_id = $1 AND id = $2', [
        datasetId,
        id,
      ])
    )[0];
  },

  async nameTaken(q: Queryable, datasetId: string, name: string, exceptId?: string): Promise<boolean> {
    const rows = await q.query(
      'SELECT 1 FROM explore_subsets WHERE dataset_id = $1 AND lower(name) = lower($2) AND id <> $3',
      [datasetId, name, exceptId ?? ''],
    );
    return rows.length > 0;
  },

  async rename(q: Queryable, id: string, name: string): Promise<SubsetRow | undefined> {
    return (
      await q.query<SubsetRow>(`UPDATE explore_subsets SET name = $2, ${touch} WHERE id = $1 RETURNING *`, [
        id,
        name,
      ])
    )[0];
  },

  /** New labels (after rename / merge / mapping); cluster genes must be recalculated when `stale`. */
  async relabel(
    q: Queryable,
    id: string,
    f: Omit<SubsetFields, 'nCells'>,
    clusterGenes: SubsetRow['cluster_genes'],
  ): Promise<SubsetRow | undefined> {
    return (
      await q.query<SubsetRow>(
        `UPDATE explore_subsets SET labels = $2, colours = $3, counts = $4, cluster_genes = $5, ${touch} WHERE id = $1 RETURNING *`,
        [id, JSON.stringify(f.labels), JSON.stringify(f.colours), JSON.stringify(f.counts), clusterGenes],
      )
    )[0];
  },

  async setColours(q: Queryable, id: string, colours: (string | null)[]): Promise<SubsetRow | undefined> {
    return (
      await q.query<SubsetRow>(
        `UPDATE explore_subsets SET colours = $2, ${touch} WHERE id = $1 RETURNING *`,
        [id, JSON.stringify(colours)],
      )
    )[0];
  },

  /**
   * One change of a level under optimistic concurrency: applied only while the row is still at
   * `expectedVersion`, which it bumps by one; undefined when another change came first.
   */
  async commit(
    q: Queryable,
    id: string,
    expectedVersion: number,
    authorId: string,
    f: {
      name?: string;
      labels?: string[];
      colours?: (string | null)[];
      counts?: number[];
      clusterGenes?: SubsetRow['cluster_genes'];
      notes?: SubsetRow['notes'];
    },
  ): Promise<SubsetRow | undefined> {
    const sets: string[] = ['version = version + 1', 'updated_by = $3', touch];
    const args: unknown[] = [id, expectedVersion, authorId];
    const add = (col: string, v: unknown) => {
      args.push(v);
      sets.push(`${col} = $${args.length}`);
    };
    if (f.name !== undefined) add('name', f.name);
    if (f.labels) add('labels', JSON.stringify(f.labels));
    if (f.colours) add('colours', JSON.stringify(f.colours));
    if (f.counts) add('counts', JSON.stringify(f.counts));
    if (f.clusterGenes) add('cluster_genes', f.clusterGenes);
    if (f.notes) add('notes', JSON.stringify(f.notes));
    return (
      await q.query<SubsetRow>(
        `UPDATE explore_subsets SET ${sets.join(', ')} WHERE id = $1 AND version = $2 RETURNING *`,
        args,
      )
    )[0];
  },

  async delete(q: Queryable, id: string): Promise<void> {
    await q.query('DELETE FROM explore_subsets WHERE id = $1', [id]);
  },
};
