import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  ADMIN_API,
  adminAuditView,
  adminJobView,
  adminPlanView,
  adminStorageView,
  adminUserView,
  type UpdatePlanBody,
} from '@cellcloud/contracts/admin';
import { request } from './client';

/** Admin console (contracts/admin.ts): users, plans, jobs, storage, audit log. */
export const adminKeys = {
  all: ['admin'] as const,
  users: (search: string) => ['admin', 'users', search] as const,
  plans: ['admin', 'plans'] as const,
  jobs: (status: string) => ['admin', 'jobs', status] as const,
  storage: ['admin', 'storage'] as const,
  audit: ['admin', 'audit'] as const,
};

/**
 * Whether the signed-in user is an administrator: the admin role is hidden (not in account
 * info), so the web asks the probe about the signed-in user; a failure means "no", shown to no one.
 */
export function useIsAdmin(enabled = true): boolean | undefined {
  const q = useQuery({
    queryKey: [...adminKeys.all, 'probe'],
    enabled,
    staleTime: 5 * 60_000,
    queryFn: () =>
      request(ADMIN_API.probe, { schema: z.object({ admin: z.boolean() }), handle: [401, 403] }).then(
        (r) => r.admin,
        () => false,
      ),
  });
  return q.data;
}

export function useAdminUsers(search: string) {
  return useQuery({
    queryKey: adminKeys.users(search),
    queryFn: () =>
      request(ADMIN_API.users, { query: search ? { search } : {}, schema: z.array(adminUserView) }),
  });
}

export function useAdminPlans() {
  return useQuery({
    queryKey: adminKeys.plans,
    queryFn: () => request(ADMIN_API.plans, { schema: z.array(adminPlanView) }),
  });
}

export function useAdminJobs(status: 'running' | 'error') {
  return useQuery({
    queryKey: adminKeys.jobs(status),
    queryFn: () => request(ADMIN_API.jobs, { query: { status }, schema: z.array(adminJobView) }),
    refetchInterval: status === 'running' ? 5000 : false,
  });
}

export function useAdminStorage() {
  return useQuery({
    queryKey: adminKeys.storage,
    queryFn: () => request(ADMIN_API.storage, { schema: adminStorageView }),
  });
}

export function useAdminAudit() {
  return useQuery({
    queryKey: adminKeys.audit,
    queryFn: () => request(ADMIN_API.audit, { schema: z.array(adminAuditView) }),
  });
}

/** Every admin action changes the audit log too: refresh the whole console's data. */
function useAdminMutation<V>(fn: (v: V) => Promise<unknown>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => qc.invalidateQueries({ queryKey: adminKeys.all }),
  });
}

export const useSetUserDisabled = () =>
  useAdminMutation((v: { id: string; disabled: boolean }) =>
    request(v.disabled ? ADMIN_API.disable(v.id) : ADMIN_API.enable(v.id), {
      method: 'POST',
      schema: adminUserView,
    }),
  );

export const useAssignPlan = () =>
  useAdminMutation((v: { id: string; planId: string }) =>
    request(ADMIN_API.userPlan(v.id), { method: 'POST', body: { planId: v.planId }, schema: adminUserView }),
  );

export const useUpdatePlan = () =>
  useAdminMutation((v: { id: string; body: UpdatePlanBody }) =>
    request(ADMIN_API.plan(v.id), { method: 'PUT', body: v.body, schema: adminPlanView }),
  );

export const useJobAction = () =>
  useAdminMutation((v: { id: string; action: 'requeue' | 'cancel' }) =>
    request(v.action === 'requeue' ? ADMIN_API.requeue(v.id) : ADMIN_API.cancel(v.id), {
      method: 'POST',
      schema: adminJobView,
    }),
  );
