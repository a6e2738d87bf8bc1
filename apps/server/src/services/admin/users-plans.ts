import { DEFAULT_DISPLAY_SWITCHES, displaySwitches, type DisplaySwitches } from '@cellcloud/contracts';
import type { AdminPlanView, AdminUserView, UpdatePlanBody } from '@cellcloud/contracts/admin';
import type { AppContext, AuthUser } from '../../context';
import { adminRepo, type AdminUserRow } from '../../db/repos/admin';
import { plansRepo } from '../../db/repos/plans';
import { usersRepo } from '../../db/repos/users';
import { AppError } from '../../errors';
import { assignPlan, setUserDisabled } from '../accounts/admin';
import { recordAudit } from './audit';

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

function userView(r: AdminUserRow): AdminUserView {
  return {
    id: r.id,
    username: r.username,
    email: r.email,
    isAdmin: r.is_admin,
    planId: r.plan_id,
    disabled: r.disabled_at !== null,
    storageBytes: Number(r.upload_bytes) + Number(r.download_bytes),
    lastLoginAt: iso(r.last_login_at),
    createdAt: new Date(r.created_at).toISOString(),
  };
}

export async function adminListUsers(ctx: AppContext, search?: string): Promise<AdminUserView[]> {
  return (await adminRepo.users(ctx.db, search)).map(userView);
}

async function userOrThrow(ctx: AppContext, id: string) {
  const u = await usersRepo.byId(ctx.db, id);
  if (!u) throw new AppError('NOT_FOUND');
  return u;
}

/** Disable (revokes the user's sessions) or enable a user — the admin CLI's use case — and audit it. */
export async function adminSetDisabled(
  ctx: AppContext,
  admin: AuthUser,
  id: string,
  disabled: boolean,
): Promise<AdminUserView> {
  const u = await userOrThrow(ctx, id);
  if (disabled && u.id === admin.id) throw new AppError('CONFLICT', {}, 'admin.selfDisable');
  await setUserDisabled(ctx.db, u.username, disabled);
  await recordAudit(ctx.db, admin, disabled ? 'user.disable' : 'user.enable', u.username);
  return userView((await adminRepo.user(ctx.db, id))!);
}

export async function adminAssignPlan(
  ctx: AppContext,
  admin: AuthUser,
  id: string,
  planId: string,
): Promise<AdminUserView> {
  const u = await userOrThrow(ctx, id);
  if (!(await plansRepo.plan(ctx.db, planId))) throw new AppError('NOT_FOUND');
  await assignPlan(ctx.db, u.username, planId);
  await recordAudit(ctx.db, admin, 'user.plan', u.username, { from: u.plan_id, to: planId });
  return userView((await adminRepo.user(ctx.db, id))!);
}

function switchesOf(raw: Record<string, unknown>): DisplaySwitches {
  const p = displaySwitches.safeParse({ ...DEFAULT_DISPLAY_SWITCHES, ...raw });
  return p.success ? p.data : DEFAULT_DISPLAY_SWITCHES;
}

async function planView(
  ctx: AppContext,
  p: {
    id: string;
    name: string;
    is_default: boolean;
    storage_quota_bytes: string | number | null;
    switches: Record<string, unknown>;
    users?: number;
  },
): Promise<AdminPlanView> {
  const grants = await plansRepo.grants(ctx.db, p.id);
  return {
    id: p.id,
    name: p.name,
    isDefault: p.is_default,
    quotaBytes: p.storage_quota_bytes === null ? null : Number(p.storage_quota_bytes),
    switches: switchesOf(p.switches),
    users: p.users ?? 0,
    grants: grants.map((g) => ({
      permission: g.permission,
      disabled: g.disabled,
      hidden: g.hidden,
      nameKey: g.name_key,
      type: g.type,
    })),
  };
}

export async function adminListPlans(ctx: AppContext): Promise<AdminPlanView[]> {
  const plans = await plansRepo.list(ctx.db);
  return Promise.all(plans.map((p) => planView(ctx, p)));
}

/** Edits a plan's quota, display switches and privilege flags (only permissions the plan holds). */
export async function adminUpdatePlan(
  ctx: AppContext,
  admin: AuthUser,
  id: string,
  body: UpdatePlanBody,
): Promise<AdminPlanView> {
  const plan = await plansRepo.plan(ctx.db, id);
  if (!plan) throw new AppError('NOT_FOUND');
  const held = new Set((await plansRepo.grants(ctx.db, id)).map((g) => g.permission));
  const unknown = (body.grants ?? []).find((g) => !held.has(g.permission));
  if (unknown) throw new AppError('VALIDATION_FAILED', { detail: unknown.permission });
  await ctx.db.tx(async (q) => {
    if (body.quotaBytes !== undefined || body.switches) {
      await adminRepo.setPlanSettings(
        q,
        id,
        body.quotaBytes !== undefined ? body.quotaBytes : plan.storage_quota_bytes,
        body.switches ?? plan.switches,
      );
    }
    for (const g of body.grants ?? []) await plansRepo.setGrant(q, id, g);
    await recordAudit(q, admin, 'plan.update', id, body);
  });
  const fresh = (await plansRepo.list(ctx.db)).find((p) => p.id === id)!;
  return planView(ctx, fresh);
}
