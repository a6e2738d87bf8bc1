import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { jobView, type JobKind } from '@cellcloud/contracts/jobs';
import { paged } from '@cellcloud/contracts/envelope';
import { z } from 'zod';
import { request } from './client';
import { PATHS } from '@cellcloud/contracts/api-paths';

/** Analysis jobs (My Analyses lists, result header, wizard submit). */
export const jobsKeys = {
  all: ['jobs'] as const,
  list: (kind: JobKind | undefined, pageNum: number, synEcoSysOnly = false) =>
    ['jobs', 'list', kind ?? 'all', pageNum, ...(synEcoSysOnly ? ['synEcoSys'] : [])] as const,
  one: (id: string) => ['jobs', 'one', id] as const,
};

/** Statuses the job screens show inline (validation, conflict, gone). */
export const JOB_STATUSES = [400, 404, 409, 507];

const jobList = paged(jobView);

export function useJobs(kind: JobKind | undefined, pageNum: number, pageSize = 10, synEcoSysOnly = false) {
  return useQuery({
    queryKey: jobsKeys.list(kind, pageNum, synEcoSysOnly),
    queryFn: () =>
      request(PATHS.jobs.list, {
        query: { kind, pageNum, pageSize, ...(synEcoSysOnly ? { synEcoSysOnly: true } : {}) },
        schema: jobList,
      }),
    placeholderData: keepPreviousData,
  });
}

export function useJob(id: string | null) {
  return useQuery({
    queryKey: jobsKeys.one(id ?? ''),
    enabled: !!id,
    queryFn: () => request(PATHS.jobs.one(id!), { schema: jobView, handle: [404] }),
  });
}

/** Submit the wizard draft (validation messages shown inline by the wizard). */
export const submitJob = (draft: unknown) =>
  request(PATHS.jobs.list, { method: 'POST', body: draft, schema: jobView, handle: JOB_STATUSES });

function useJobAction<A>(fn: (a: A) => Promise<unknown>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSettled: () => qc.invalidateQueries({ queryKey: jobsKeys.all }) });
}

export const useSuspendJob = () =>
  useJobAction((id: string) => request(PATHS.jobs.suspend(id), { method: 'POST', schema: jobView }));
export const useResumeJob = () =>
  useJobAction((id: string) => request(PATHS.jobs.resume(id), { method: 'POST', schema: jobView }));
export const useDeleteJob = () =>
  useJobAction((id: string) => request(PATHS.jobs.one(id), { method: 'DELETE' }));
export const useReeditJob = () =>
  useJobAction((id: string) =>
    request(PATHS.jobs.reedit(id), { method: 'POST', schema: z.object({ draftId: z.string() }) }),
  );
