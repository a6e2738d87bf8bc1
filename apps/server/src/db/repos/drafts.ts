import type { Queryable } from '../client';

export interface DraftRow {
  id: string;
  user_id: string;
  job_name: string;
  step_tag: number;
  page_tag: string;
  content: Record<string, unknown>;
  cf_status: string;
  cf_message: string | null;
  cf_boss_id: string | null;
  cf_run: number;
  created_at: Date;
  updated_at: Date;
}

export const draftsRepo = {
  async upsert(
    q: Queryable,
    userId: string,
    id: string | undefined,
    d: { jobName: string; stepTag: number; pageTag: string; content: unknown },
  ) {
    if (id) {
      const [row] = await q.query<DraftRow>(
        `UPDATE analysis_drafts SET job_name = $3, step_tag = $4, page_tag = $5, content = $6, updated_at = clock_timestamp()
         WHERE id = $1 AND user_id = $2 RETURNING *`,
        [id, userId, d.jobName, d.stepTag, d.pageTag, JSON.stringify(d.content)],
      );
      return row;
    }
    const [row] = await q.query<DraftRow>(
      'INSERT INTO analysis_drafts (user_id, job_name, step_tag, page_tag, content) VALUES ($1, $2, $3, $4, $5) RETURNING *',
      [userId, d.jobName, d.stepTag, d.pageTag, JSON.stringify(d.content)],
    );
    return row;
  },

  async get(q: Queryable, id: string): Promise<DraftRow | undefined> {
    return (await q.query<DraftRow>('SELECT * FROM analysis_drafts WHERE id = $1', [id]))[0];
  },

  async list(q: Queryable, userId: string): Promise<DraftRow[]> {
    return q.query<DraftRow>(
      'SELECT * FROM analysis_drafts WHERE user_id = $1 ORDER BY updated_at DESC LIMIT 200',
      [userId],
    );
  },

  async delete(q: Queryable, userId: string, id: string): Promise<boolean> {
    return (
      (await q.query('DELETE FROM analysis_drafts WHERE id = $1 AND user_id = $2 RETURNING id', [id, userId]))
        .length === 1
    );
  },

  /** Cell-filtering state; `run` fences results of an evaluation that was discarded meanwhile. */
  async setCellFiltering(
    q: Queryable,
    id: string,
    status: string,
    opts: { message?: string | null; bossId?: string | null; newRun?: boolean; run?: number } = {},
  ) {
    const fence = opts.run === undefined ? '' : ` AND cf_run = ${Number(opts.run)}`;
    const r = await q.query<DraftRow>(
      `UPDATE analysis_drafts SET cf_status = $2, cf_message = $3, cf_boss_id = COALESCE($4, cf_boss_id),
         cf_run = cf_run + $5, updated_at = clock_timestamp() WHERE id = $1${fence} RETURNING *`,
      [id, status, opts.message ?? null, opts.bossId ?? null, opts.newRun ? 1 : 0],
    );
    return r[0];
  },
};
