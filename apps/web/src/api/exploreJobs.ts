import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { degRow, type DegRow } from '@cellcloud/contracts/artifacts';
import {
  childTaskView,
  degTaskView,
  type CalculateDegBody,
  type SubclusterBody,
} from '@cellcloud/contracts/explore-deg';
import { currentLocale } from '../i18n';
import { ApiError, request } from './client';
import { subsetKeys } from './explore';
import { getSession } from './session';
import { PATHS } from '@cellcloud/contracts/api-paths';

/**
 * Job-backed explorer actions (docs/product/api.md#dataset-calls user_datasets/{id}/calculate_deg_task, subcluster_task,
 * user-files/svg-to-tiff). Results appear after a manual refresh (docs/product/states.md#cluster-genes): the lists are
 * fetched on mount and on `refetch`, not polled.
 */
const HANDLED = [400, 404, 409];
const base = PATHS.explore.dataset;
export const exploreJobKeys = {
  deg: (datasetId: string) => ['explore', 'degTasks', datasetId] as const,
  children: (datasetId: string) => ['explore', 'childTasks', datasetId] as const,
};

export function useDegTasks(datasetId: string) {
  return useQuery({
    queryKey: exploreJobKeys.deg(datasetId),
    queryFn: () => request(`${base(datasetId)}/deg_tasks`, { schema: z.array(degTaskView) }),
  });
}

export function useCalculateDeg(datasetId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: CalculateDegBody) =>
      request(`${base(datasetId)}/calculate_deg_task`, {
        method: 'POST',
        body,
        schema: degTaskView,
        handle: HANDLED,
      }),
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: exploreJobKeys.deg(datasetId) });
      void qc.invalidateQueries({ queryKey: subsetKeys.list(datasetId) });
    },
  });
}

export async function blobFetch(url: string, init: RequestInit = {}): Promise<Response> {
  const headers: Record<string, string> = {
    'x-lang': currentLocale(),
    ...(init.headers as Record<string, string> | undefined),
  };
  const token = getSession()?.token;
  if (token) headers['access-token'] = token;
  const res = await fetch(url, { ...init, headers });
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as { msg?: string } | null;
    throw new ApiError(res.status, res.status, body?.msg ?? res.statusText);
  }
  return res;
}

/** DEG rows of a completed calculation (unfiltered; the tab applies the docs/product/validation.md#deg-display-filter filter). */
export async function fetchDegResult(datasetId: string, taskId: string): Promise<DegRow[]> {
  const res = await blobFetch(`${base(datasetId)}/deg_tasks/${encodeURIComponent(taskId)}/result`);
  return z.array(degRow).parse(await res.json());
}

export function useChildTasks(datasetId: string) {
  return useQuery({
    queryKey: exploreJobKeys.children(datasetId),
    queryFn: () => request(`${base(datasetId)}/child_tasks`, { schema: z.array(childTaskView) }),
  });
}

export function useStartSubcluster(datasetId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: SubclusterBody) =>
      request(`${base(datasetId)}/subcluster_task`, {
        method: 'POST',
        body,
        schema: childTaskView,
        handle: HANDLED,
      }),
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: exploreJobKeys.children(datasetId) });
      void qc.invalidateQueries({ queryKey: subsetKeys.list(datasetId) });
    },
  });
}

/** Server-side SVG → TIFF (docs/product/api.md#image-conversion: token in the query, returns a blob). */
export async function svgToTiff(svg: string, fileName: string): Promise<Blob> {
  const token = getSession()?.token ?? '';
  const res = await blobFetch(`/api/user-files/svg-to-tiff?token=${encodeURIComponent(token)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ svg, fileName }),
  });
  return res.blob();
}
