import type { Queryable } from '../client';

export interface AdminUserRow {
  id: string;
  username: string;
  email: string;
  is_admin: boolean;
  plan_id: string | null;
  disabled_at: Date | null;
  created_at: Date;
  upload_bytes: string | number;
  download_bytes: string | number;
  last_login_at: Date | null;
}

export interface AdminJobRow {
  id: string;
  analysis_id: string;
  job_name: string;
  user_id: string;
  username: string | null;
  status: string;
  progress: number;
  step: string | null;
  message: string | null;
  submitted_at: Date;
  finished_at: Date | null;
}

export interface AuditRow {
  id: string | number;
  admin_username: string;
  action: string;
  target: string;
  details: Record<string, unknown>;
  created_at: Date;
}

/** SQL of the admin console: cross-user listings and the audit log. */
export const adminRepo = {
  async users(q: Queryable, search: string | undefined): Promise<AdminUserRow[]> {
    return q.query<AdminUserRow>(
      `SELECT u.id, u.username, u.email, u.is_admin, u.plan_id, u.disabled_at, u.created_at,
              (SELECT COALESCE(sum(total_size + dataset_size), 0) FROM uploads x WHERE x.user_id = u.id) AS upload_bytes,
              (SELECT COALESCE(sum(file_size), 0) FROM download_requests d WHERE d.user_id = u.id AND d.status = 'approved') AS download_bytes,
              (SELECT max(login_at) FROM login_log l WHERE l.user_id = u.id AND l.success) AS last_login_at
         FROM users u
        WHERE $1::text IS NULL OR u.username ILIKE '%' || $1 || '%' OR u.email ILIKE '%' || $1 || '%'
        ORDER BY u.created_at, u.username LIMIT 500`,
      [search || null],
    );
  },
  async user(q: Queryable, id: string): Promise<AdminUserRow | undefined> {
    const rows = await q.query<AdminUserRow>(
      `SELECT u.id, u.username, u.email, u.is_admin, u.plan_id, u.disabled_at, u.created_at,
              (SELECT COALESCE(sum(total_size + dataset_size), 0) FROM uploads x WHERE x.user_id = u.id) AS upload_bytes,
              (SELECT COALESCE(sum(file_size), 0) FROM download_requests d WHERE d.user_id = u.id AND d.status = 'approved') AS download_bytes,
              (SELECT max(login_at) FROM login_log l WHERE l.user_id = u.id AND l.success) AS last_login_at
         FROM users u WHERE u.id = $1`,
      [id],
    );
    return rows[0];
  },
  async jobs(q: Queryable, statuses: string[]): Promise<AdminJobRow[]> {
    return q.query<AdminJobRow>(
      `SELECT j.id, j.analysis_id, j.job_name, j.user_id, u.username, j.status, j.progress, j.step, j.message,
              j.submitted_at, j.finished_at
         FROM analysis_jobs j LEFT JOIN users u ON u.id = j.user_id
        WHERE j.status = ANY($1::text[]) ORDER BY j.updated_at DESC LIMIT 500`,
      [statuses],
    );
  },
  /** Completed analyses that own their results (not cached copies), per user. */
  async resultJobs(q: Queryable): Promise<{ id: string; user_id: string }[]> {
    return q.query(`SELECT id, user_id FROM analysis_jobs WHERE result_of IS NULL AND status = 'completed'`);
  },
  async setPlanSettings(
    q: Queryable,
    id: string,
    quota: string | number | null,
    switches: object,
  ): Promise<void> {
    await q.query('UPDATE plans SET storage_quota_bytes = $2, switches = $3::text::jsonb WHERE id = $1', [
      id,
      quota,
      JSON.stringify(switches),
    ]);
  },
  async audit(
    q: Queryable,
    row: { adminId: string | null; adminUsername: string; action: string; target: string; details: object },
  ): Promise<void> {
    await q.query(
      `INSERT INTO admin_audit (admin_id, admin_username, action, target, details) VALUES ($1,$2,$3,$4,$5::text::jsonb)`,
      [row.adminId, row.adminUsername, row.action, row.target, JSON.stringify(row.details)],
    );
  },
  async auditList(q: Queryable, limit: number): Promise<AuditRow[]> {
    return q.query<AuditRow>(
      `SELECT id, admin_username, action, target, details, created_at FROM admin_audit ORDER BY created_at DESC, id DESC LIMIT $1`,
      [limit],
    );
  },
};
