import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { DOWNLOADS_API, downloadView, type DownloadKind } from '@cellcloud/contracts/downloads';
import { request } from './client';

/** Requested downloads (contracts/downloads.ts): the user's tabs, the request call, the admin queue. */
export const downloadKeys = {
  all: ['downloads'] as const,
  tab: (tab: string) => ['downloads', 'tab', tab] as const,
  admin: (status: string) => ['downloads', 'admin', status] as const,
};

const views = z.array(downloadView);
/** Refresh while an approved export is still being written. */
const busy = (rows: z.infer<typeof views> | undefined) =>
  rows?.some((r) => r.status === 'approved' && (r.exportState === 'waiting' || r.exportState === 'running'))
    ? 3000
    : false;

export function useDownloads(tab: 'active' | 'requested' | 'expired') {
  return useQuery({
    queryKey: downloadKeys.tab(tab),
    queryFn: () => request(DOWNLOADS_API.list, { query: { tab }, schema: views }),
    refetchInterval: (q) => busy(q.state.data),
  });
}

export function useRequestDownload() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: { datasetId: string; kind: DownloadKind }) =>
      request(DOWNLOADS_API.create, { method: 'POST', body, schema: downloadView }),
    onSuccess: () => qc.invalidateQueries({ queryKey: downloadKeys.all }),
  });
}

export function useAdminDownloads(status: 'pending' | 'all') {
  return useQuery({
    queryKey: downloadKeys.admin(status),
    queryFn: () => request(DOWNLOADS_API.adminList, { query: { status }, schema: views }),
  });
}

export function useDecideDownload() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (d: { id: string; approve: boolean; reason?: string }) =>
      d.approve
        ? request(DOWNLOADS_API.approve(d.id), { method: 'POST', schema: downloadView })
        : request(DOWNLOADS_API.decline(d.id), {
            method: 'POST',
            body: { reason: d.reason ?? '' },
            schema: downloadView,
          }),
    onSuccess: () => qc.invalidateQueries({ queryKey: downloadKeys.all }),
  });
}
