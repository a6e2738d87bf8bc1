import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { jobView, type JobKind } from '@cellcloud/contracts/jobs';
import { paged } from '@cellcloud/contracts/envelope';
import { z } from 'zod';
import { request } from './client';

/** Analysis jobs (My Analyses lists, result header, wizard submit). */
export const jobsKeys = {
  all: ['jobs'] as const,
  list: (kind: JobKind | undefined, pageNum: number) => ['jobs', 'list', kind ?? 'all', pageNum] as const,
  one: (id: string) => ['jobs', 'one', id] as const,
};

/** Statuses the job screens show inline (validation, conflict, gone). */
export const JOB_STATUSES = [400, 404, 409, 507];

const jobList = paged(jobView);

export function useJobs(kind: JobKind | undefined, pageNum: number, pageSize = 10) {
  return useQuery({
    queryKey: jobsKeys.list(kind, pageNum),
    queryFn: () => request('/api/jobs', { query: { kind, pageNum, pageSize }, schema: jobList }),
    placeholderData: keepPreviousData,
  });
}

export function useJob(id: string | null) {
  return useQuery({
    queryKey: jobsKeys.one(id ?? ''),
    enabled: !!id,
    queryFn: () => request(`/api/jobs/${id}`, { schema: jobView, handle: [404] }),
  });
}

/** Submit the wizard draft (validation messages shown inline by the wizard). */
export const submitJob = (draft: unknown) =>
  request('/api/jobs', { method: 'POST', body: draft, schema: jobView, handle: JOB_STATUSES });

function useJobAction<A>(fn: (a: A) => Promise<unknown>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSettled: () => qc.invalidateQueries({ queryKey: jobsKeys.all }) });
}

export const useSuspendJob = () =>
  useJobAction((id: string) => request(`/api/jobs/${id}/suspend`, { method: 'POST', schema: jobView }));
export const useResumeJob = () =>
  useJobAction((id: string) => request(`/api/jobs/${id}/resume`, { method: 'POST', schema: jobView }));
export const useDeleteJob = () =>
  useJobAction((id: string) => request(`/api/jobs/${id}`, { method: 'DELETE' }));
export const useReeditJob = () =>
  useJobAction((id: string) =>
    request(`/api/jobs/${id}/reedit`, { method: 'POST', schema: z.object({ draftId: z.string() }) }),
  );
