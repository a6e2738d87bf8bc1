import type { Queryable } from '../client';

/** A row of `explore_child_tasks` (migration 0302) with the child job's name and status. */
export interface ChildTaskRow {
  child_job_id: string;
  parent_job_id: string;
  subset_id: string;
  user_id: string;
  labels: string[];
  n_cells: number;
  created_at: Date;
  job_name: string | null;
  status: string | null;
}

export const exploreChildTasksRepo = {
  /** Links a child job to its parent and subset; the subset now has a child task (no delete/rename). */
  async insert(
    q: Queryable,
    t: {
      childJobId: string;
      parentJobId: string;
      subsetId: string;
      userId: string;
      labels: string[];
      nCells: number;
    },
  ): Promise<void> {
    await q.query(
      `INSERT INTO explore_child_tasks (child_job_id, parent_job_id, subset_id, user_id, labels, n_cells) VALUES ($1, $2, $3, $4, $5, $6)`,
      [t.childJobId, t.parentJobId, t.subsetId, t.userId, JSON.stringify(t.labels), t.nCells],
    );
    await q.query(
      'UPDATE explore_subsets SET child_tasks = child_tasks + 1, updated_at = clock_timestamp() WHERE id = $1',
      [t.subsetId],
    );
  },

  /**
   * Unlinks a deleted child job: its subset loses one child task (and can be renamed/deleted
   * again once it has none). Returns whether the job was a child task.
   */
  async removeChild(q: Queryable, childJobId: string): Promise<boolean> {
    const gone = await q.query<{ subset_id: string }>(
      'DELETE FROM explore_child_tasks WHERE child_job_id = $1 RETURNING subset_id',
      [childJobId],
    );
    if (!gone[0]) return false;
    await q.query(
      'UPDATE explore_subsets SET child_tasks = GREATEST(child_tasks - 1, 0), updated_at = clock_timestamp() WHERE id = $1',
      [gone[0].subset_id],
    );
    return true;
  },

  async get(q: Queryable, childJobId: string): Promise<ChildTaskRow | undefined> {
    return (
      await q.query<ChildTaskRow>(
        `SELECT t.*, j.job_name, j.status FROM explore_child_tasks t LEFT JOIN analysis_jobs j ON j.id = t.child_job_id WHERE t.child_job_id = $1`,
        [childJobId],
      )
    )[0];
  },

  async listByParent(q: Queryable, parentJobId: string): Promise<ChildTaskRow[]> {
    return q.query<ChildTaskRow>(
      `SELECT t.*, j.job_name, j.status FROM explore_child_tasks t LEFT JOIN analysis_jobs j ON j.id = t.child_job_id
       WHERE t.parent_job_id = $1 ORDER BY t.created_at DESC`,
      [parentJobId],
    );
  },
};
