import type { AdminAuditView } from '@cellcloud/contracts/admin';
import type { AuthUser } from '../../context';
import type { Queryable } from '../../db/client';
import { adminRepo } from '../../db/repos/admin';

/** Records one administrator action (who / what / target / details); the time is the row's. */
export async function recordAudit(
  q: Queryable,
  admin: Pick<AuthUser, 'id' | 'username'>,
  action: string,
  target: string,
  details: object = {},
): Promise<void> {
  await adminRepo.audit(q, { adminId: admin.id, adminUsername: admin.username, action, target, details });
}

/** The audit log, newest first. */
export async function listAudit(q: Queryable, limit: number): Promise<AdminAuditView[]> {
  return (await adminRepo.auditList(q, limit)).map((r) => ({
    id: String(r.id),
    adminUsername: r.admin_username,
    action: r.action,
    target: r.target,
    details: r.details ?? {},
    createdAt: new Date(r.created_at).toISOString(),
  }));
}
