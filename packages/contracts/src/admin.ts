import { z } from 'zod';
import { displaySwitches } from './privileges';

/**
 * Admin console (issue 21): users, plans and privileges, jobs, storage and the audit log.
 * Every route answers 401 without a token and 403 for a non-admin user.
 *
 *   GET  /api/admin/users?search=                  → AdminUserView[]
 *   POST /api/admin/users/:id/disable | /enable    → AdminUserView
 *   POST /api/admin/users/:id/plan  { planId }     → AdminUserView
 *   GET  /api/admin/plans                          → AdminPlanView[]
 *   PUT  /api/admin/plans/:id  { quotaBytes?, switches?, grants? } → AdminPlanView
 *   GET  /api/admin/jobs?status=running|error      → AdminJobView[]
 *   POST /api/admin/jobs/:id/requeue | /cancel     → AdminJobView
 *   GET  /api/admin/storage                        → AdminStorageView
 *   GET  /api/admin/audit?limit=                   → AdminAuditView[] (newest first)
 */
export const ADMIN_API = {
  /** `{ admin }` for the signed-in user: how the web decides to show the console (the role is not in account info). */
  probe: '/api/admin/probe',
  users: '/api/admin/users',
  disable: (id: string) => `/api/admin/users/${id}/disable`,
  enable: (id: string) => `/api/admin/users/${id}/enable`,
  userPlan: (id: string) => `/api/admin/users/${id}/plan`,
  plans: '/api/admin/plans',
  plan: (id: string) => `/api/admin/plans/${id}`,
  jobs: '/api/admin/jobs',
  requeue: (id: string) => `/api/admin/jobs/${id}/requeue`,
  cancel: (id: string) => `/api/admin/jobs/${id}/cancel`,
  storage: '/api/admin/storage',
  audit: '/api/admin/audit',
} as const;

export const adminUsersQuery = z.object({ search: z.string().trim().max(200).optional() }).strict();
export const adminUserView = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string(),
  isAdmin: z.boolean(),
  planId: z.string().nullable(),
  disabled: z.boolean(),
  storageBytes: z.number(),
  lastLoginAt: z.string().nullable(),
  createdAt: z.string(),
});
export type AdminUserView = z.infer<typeof adminUserView>;
export const assignPlanBody = z.object({ planId: z.string().min(1).max(100) }).strict();

export const adminGrant = z
  .object({ permission: z.string().min(1).max(100), disabled: z.boolean(), hidden: z.boolean() })
  .strict();
export const adminPlanView = z.object({
  id: z.string(),
  name: z.string(),
  isDefault: z.boolean(),
  quotaBytes: z.number().nullable(),
  switches: displaySwitches,
  users: z.number(),
  grants: z.array(adminGrant.extend({ nameKey: z.string(), type: z.number() })),
});
export type AdminPlanView = z.infer<typeof adminPlanView>;
export const updatePlanBody = z
  .object({
    quotaBytes: z.number().int().min(0).nullable().optional(),
    switches: displaySwitches.optional(),
    grants: z.array(adminGrant).max(200).optional(),
  })
  .strict();
export type UpdatePlanBody = z.infer<typeof updatePlanBody>;

export const adminJobsQuery = z.object({ status: z.enum(['running', 'error']).default('running') }).strict();
export const adminJobView = z.object({
  id: z.string(),
  /** `publicIngest`: a public database ingest (issue 20; no owner, no re-queue / cancel here). */
  kind: z.enum(['analysis', 'publicIngest']).default('analysis'),
  analysisId: z.string(),
  jobName: z.string(),
  username: z.string(),
  status: z.string(),
  progress: z.number(),
  step: z.string().nullable(),
  message: z.string().nullable(),
  submittedAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type AdminJobView = z.infer<typeof adminJobView>;

/** Kinds of a user's storage (counted in the user's quota). */
export const storageKinds = ['uploads', 'results', 'downloads'] as const;
export const adminStorageView = z.object({
  /** Every user's kinds summed, and the tutorial videos (admin-owned, in no user's quota). */
  totals: z.object({ uploads: z.number(), results: z.number(), downloads: z.number(), videos: z.number() }),
  users: z.array(
    z.object({
      userId: z.string(),
      username: z.string(),
      uploads: z.number(),
      results: z.number(),
      downloads: z.number(),
      total: z.number(),
    }),
  ),
});
export type AdminStorageView = z.infer<typeof adminStorageView>;

export const adminAuditQuery = z
  .object({ limit: z.coerce.number().int().min(1).max(500).default(100) })
  .strict();
export const adminAuditView = z.object({
  id: z.string(),
  adminUsername: z.string(),
  action: z.string(),
  target: z.string(),
  details: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
});
export type AdminAuditView = z.infer<typeof adminAuditView>;
