import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  TASK_API,
  taskOutputsView,
  taskTablePage,
  taskView,
  type CreateTaskBody,
  type TaskView,
} from '@cellcloud/contracts/tasks/api';
import { neutralizeCsv } from '@cellcloud/formats/table-export';
import { currentLocale } from '../i18n';
import { ApiError, request } from './client';
import { getSession } from './session';

/**
 * Analysis tasks of a dataset (issue 11; contracts tasks/api.ts). The list is refetched on the
 * live `task` events (api/jobEvents.ts) and, as a fallback, polled while a task is processing.
 */
const HANDLED = [400, 403, 404, 409];
export const taskKeys = {
  list: (datasetId: string) => ['tasks', datasetId] as const,
  outputs: (datasetId: string, taskId: string) => ['tasks', datasetId, taskId, 'outputs'] as const,
  table: (datasetId: string, taskId: string, name: string) =>
    ['tasks', datasetId, taskId, 'table', name] as const,
};

const active = (t: TaskView) => t.status === 'submitted' || t.status === 'running';

export function useTasks(datasetId: string) {
  return useQuery({
    queryKey: taskKeys.list(datasetId),
    queryFn: () => request(TASK_API.list(datasetId), { schema: z.array(taskView), handle: HANDLED }),
    refetchInterval: (q) => (q.state.data?.some(active) ? 3000 : false),
  });
}

export function useCreateTask(datasetId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateTaskBody) =>
      request(TASK_API.list(datasetId), { method: 'POST', body, schema: taskView, handle: HANDLED }),
    onSettled: () => void qc.invalidateQueries({ queryKey: taskKeys.list(datasetId) }),
  });
}

export function useDeleteTask(datasetId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (taskId: string) =>
      request(TASK_API.one(datasetId, taskId), { method: 'DELETE', handle: HANDLED }),
    onSettled: () => void qc.invalidateQueries({ queryKey: taskKeys.list(datasetId) }),
  });
}

export function useTaskOutputs(datasetId: string, taskId: string | null) {
  return useQuery({
    queryKey: taskKeys.outputs(datasetId, taskId ?? ''),
    enabled: taskId !== null,
    staleTime: Infinity,
    queryFn: () =>
      request(TASK_API.outputs(datasetId, taskId!), { schema: taskOutputsView, handle: HANDLED }),
  });
}

/** The first `limit` rows of a result table (JSON page). */
export function fetchTaskTablePage(datasetId: string, taskId: string, name: string, limit = 10_000) {
  return request(TASK_API.table(datasetId, taskId, name), {
    query: { offset: 0, limit },
    schema: taskTablePage,
    handle: HANDLED,
  });
}

export function useTaskTable(datasetId: string, taskId: string, name: string, limit = 10_000) {
  return useQuery({
    queryKey: [...taskKeys.table(datasetId, taskId, name), limit],
    staleTime: Infinity,
    queryFn: () => fetchTaskTablePage(datasetId, taskId, name, limit),
  });
}

async function authedFetch(url: string): Promise<Response> {
  const headers: Record<string, string> = { 'x-lang': currentLocale() };
  const token = getSession()?.token;
  if (token) headers['access-token'] = token;
  const res = await fetch(url, { headers });
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as { msg?: string } | null;
    throw new ApiError(res.status, res.status, body?.msg ?? res.statusText);
  }
  return res;
}

/** One output file (obs/…, data/…) of a completed task as bytes. */
export async function fetchTaskFile(datasetId: string, taskId: string, file: string): Promise<ArrayBuffer> {
  return (await authedFetch(TASK_API.file(datasetId, taskId, file))).arrayBuffer();
}

/** A result table as stored CSV (views parse it; exports use exportTaskTableCsv). */
export async function fetchTaskTableCsv(datasetId: string, taskId: string, name: string): Promise<Blob> {
  return (await authedFetch(`${TASK_API.table(datasetId, taskId, name)}?format=csv`)).blob();
}

/** A result table as a CSV file to save: formula-like text quoted (contracts/spreadsheet-safe.ts). */
export async function exportTaskTableCsv(datasetId: string, taskId: string, name: string): Promise<Blob> {
  const text = await (await fetchTaskTableCsv(datasetId, taskId, name)).text();
  return new Blob([neutralizeCsv(text)], { type: 'text/csv' });
}

/** A File as base64 (for the create call's `uploads`). */
export async function fileToBase64(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}
