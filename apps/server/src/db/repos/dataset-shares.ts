import type { Queryable } from '../client';

/** A row of `dataset_shares` (migration 0750) with the invitee's names. */
export interface ShareRow {
  id: string;
  dataset_id: string;
  owner_id: string;
  user_id: string;
  role: 'viewer' | 'editor';
  created_at: Date;
  updated_at: Date;
  username: string;
  email: string;
}

/** A share received by a user, with the analysis and its owner (My Analyses, "Shared with me"). */
export interface ReceivedShareRow {
  id: string;
  dataset_id: string;
  role: 'viewer' | 'editor';
  created_at: Date;
  job_name: string;
  species: string;
  owner_id: string;
  owner_name: string;
}

const withUser = `SELECT s.*, u.username, u.email FROM dataset_shares s JOIN users u ON u.id = s.user_id`;

/** SQL of the shares of an analysis (issue 35). Every access check reads `roleOf`. */
export const datasetSharesRepo = {
  async insert(
    q: Queryable,
    s: { datasetId: string; ownerId: string; userId: string; role: 'viewer' | 'editor' },
  ): Promise<ShareRow | undefined> {
    const [row] = await q.query<{ id: string }>(
      `INSERT INTO dataset_shares (dataset_id, owner_id, user_id, role) VALUES ($1, $2, $3, $4)
       ON CONFLICT (dataset_id, user_id) DO NOTHING RETURNING id`,
      [s.datasetId, s.ownerId, s.userId, s.role],
    );
    return row ? this.get(q, s.datasetId, row.id) : undefined;
  },

  async list(q: Queryable, datasetId: string): Promise<ShareRow[]> {
    return q.query<ShareRow>(`${withUser} WHERE s.dataset_id = $1 ORDER BY s.created_at, u.username`, [
      datasetId,
    ]);
  },

  async get(q: Queryable, datasetId: string, id: string): Promise<ShareRow | undefined> {
    return (await q.query<ShareRow>(`${withUser} WHERE s.dataset_id = $1 AND s.id = $2`, [datasetId, id]))[0];
  },

  async setRole(q: Queryable, id: string, role: 'viewer' | 'editor'): Promise<void> {
    await q.query('UPDATE dataset_shares SET role = $2, updated_at = clock_timestamp() WHERE id = $1', [
      id,
      role,
    ]);
  },

  async delete(q: Queryable, id: string): Promise<void> {
    await q.query('DELETE FROM dataset_shares WHERE id = $1', [id]);
  },

  /** The role a share gives `userId` on the dataset, if any. */
  async roleOf(q: Queryable, datasetId: string, userId: string): Promise<'viewer' | 'editor' | undefined> {
    return (
      await q.query<{ role: 'viewer' | 'editor' }>(
        'SELECT role FROM dataset_shares WHERE dataset_id = $1 AND user_id = $2',
        [datasetId, userId],
      )
    )[0]?.role;
  },

  async received(q: Queryable, userId: string): Promise<ReceivedShareRow[]> {
    return q.query<ReceivedShareRow>(
      `SELECT s.id, s.dataset_id, s.role, s.created_at, j.job_name, j.species, s.owner_id, o.username AS owner_name
         FROM dataset_shares s
         JOIN analysis_jobs j ON j.id = s.dataset_id
         JOIN users o ON o.id = s.owner_id
        WHERE s.user_id = $1
        ORDER BY s.created_at DESC`,
      [userId],
    );
  },
};
