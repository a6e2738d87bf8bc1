import type { Queryable } from '../client';

export interface PrivilegeRow {
  id: number;
  parent_id: number | null;
  permission: string;
  name_key: string;
  url: string | null;
  type: number;
  sort: number;
}

export interface PlanRow {
  id: string;
  name: string;
  storage_quota_bytes: string | number | null;
  switches: Record<string, unknown>;
  is_default: boolean;
}

export interface PlanPrivilegeRow extends PrivilegeRow {
  disabled: boolean;
  hidden: boolean;
}

export interface PlanGrant {
  permission: string;
  disabled: boolean;
  hidden: boolean;
}

/** SQL of `privileges`, `plans` and `plan_privileges`. */
export const plansRepo = {
  async upsertPrivilege(
    q: Queryable,
    p: Omit<PrivilegeRow, 'parent_id' | 'name_key'> & { parentId: number | null; nameKey: string },
  ) {
    await q.query(
      `INSERT INTO privileges (id, parent_id, permission, name_key, url, type, sort) VALUES ($1,$2,$3,$4,$5,$6,$7)
       ON CONFLICT (id) DO UPDATE SET parent_id = $2, permission = $3, name_key = $4, url = $5, type = $6, sort = $7`,
      [p.id, p.parentId, p.permission, p.nameKey, p.url, p.type, p.sort],
    );
  },
  async plan(q: Queryable, id: string): Promise<PlanRow | undefined> {
    return (await q.query<PlanRow>('SELECT * FROM plans WHERE id = $1', [id]))[0];
  },
  async defaultPlan(q: Queryable): Promise<PlanRow | undefined> {
    return (await q.query<PlanRow>('SELECT * FROM plans WHERE is_default LIMIT 1'))[0];
  },
  async list(q: Queryable): Promise<(PlanRow & { users: number })[]> {
    return q.query(
      `SELECT p.*, (SELECT count(*)::int FROM users u WHERE u.plan_id = p.id) AS users FROM plans p ORDER BY p.id`,
    );
  },
  /** Creates the plan if missing (`replace` = overwrite name, quota, switches and grants). */
  async save(
    q: Queryable,
    p: {
      id: string;
      name: string;
      quotaBytes: number | null;
      switches: object;
      isDefault: boolean;
      grants: PlanGrant[];
    },
    replace: boolean,
  ): Promise<boolean> {
    const inserted = await q.query(
      `INSERT INTO plans (id, name, storage_quota_bytes, switches, is_default) VALUES ($1,$2,$3,$4::text::jsonb,$5)
       ON CONFLICT (id) DO NOTHING RETURNING id`,
      [p.id, p.name, p.quotaBytes, JSON.stringify(p.switches), p.isDefault],
    );
    if (!inserted.length && !replace) return false;
    if (!inserted.length) {
      await q.query(
        'UPDATE plans SET name = $2, storage_quota_bytes = $3, switches = $4::text::jsonb WHERE id = $1',
        [p.id, p.name, p.quotaBytes, JSON.stringify(p.switches)],
      );
      await q.query('DELETE FROM plan_privileges WHERE plan_id = $1', [p.id]);
    }
    for (const g of p.grants) {
      await q.query(
        'INSERT INTO plan_privileges (plan_id, permission, disabled, hidden) VALUES ($1,$2,$3,$4)',
        [p.id, g.permission, g.disabled, g.hidden],
      );
    }
    return true;
  },
  /** The privilege rows a plan holds, with its flags, in menu order. */
  async grants(q: Queryable, planId: string): Promise<PlanPrivilegeRow[]> {
    return q.query<PlanPrivilegeRow>(
      `SELECT p.id, p.parent_id, p.permission, p.name_key, p.url, p.type, p.sort, pp.disabled, pp.hidden
         FROM plan_privileges pp JOIN privileges p ON p.permission = pp.permission
        WHERE pp.plan_id = $1 ORDER BY p.type, p.parent_id NULLS FIRST, p.sort, p.id`,
      [planId],
    );
  },
  async setGrant(q: Queryable, planId: string, g: PlanGrant): Promise<void> {
    await q.query(
      `INSERT INTO plan_privileges (plan_id, permission, disabled, hidden) VALUES ($1,$2,$3,$4)
       ON CONFLICT (plan_id, permission) DO UPDATE SET disabled = $3, hidden = $4`,
      [planId, g.permission, g.disabled, g.hidden],
    );
  },
  async quotaOfUser(q: Queryable, userId: string): Promise<{ found: boolean; quota: number | null }> {
    const rows = await q.query<{ q: string | number | null }>(
      `SELECT coalesce(p.storage_quota_bytes, d.storage_quota_bytes) AS q
         FROM users u LEFT JOIN plans p ON p.id = u.plan_id LEFT JOIN plans d ON d.is_default WHERE u.id = $1`,
      [userId],
    );
    if (!rows.length) return { found: false, quota: null };
    const v = rows[0]!.q;
    return { found: true, quota: v === null ? null : Number(v) };
  },
};
