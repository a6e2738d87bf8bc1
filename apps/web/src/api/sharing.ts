import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { subsetView } from '@cellcloud/contracts/explore';
import {
  datasetRoleView,
  historyEntryView,
  sharedDatasetView,
  shareView,
  type ShareRole,
} from '@cellcloud/contracts/sharing';
import { request } from './client';
import { subsetKeys } from './explore';

/**
 * Sharing an analysis and a saved level's history (issue 35, docs/product/sharing.md). Mutations
 * handle 400/403/404/409 themselves so dialogs show the server's translated message inline.
 */
const HANDLED = [400, 403, 404, 409];
const base = (datasetId: string) => `/api/user_datasets/${encodeURIComponent(datasetId)}`;
const keys = {
  shares: (id: string) => ['sharing', 'shares', id] as const,
  received: ['sharing', 'received'] as const,
  role: (id: string) => ['sharing', 'role', id] as const,
  history: (id: string, level: string) => ['sharing', 'history', id, level] as const,
};

export function useShares(datasetId: string, enabled = true) {
  return useQuery({
    queryKey: keys.shares(datasetId),
    queryFn: () => request(`${base(datasetId)}/shares`, { schema: z.array(shareView), handle: HANDLED }),
    enabled,
  });
}

export function useShareAction(datasetId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (
      a:
        | { kind: 'add'; user: string; role: ShareRole }
        | { kind: 'role'; shareId: string; role: ShareRole }
        | { kind: 'revoke'; shareId: string },
    ) => {
      if (a.kind === 'add')
        return request(`${base(datasetId)}/shares`, {
          method: 'POST',
          body: { user: a.user, role: a.role },
          handle: HANDLED,
        });
      const url = `${base(datasetId)}/shares/${encodeURIComponent(a.shareId)}`;
      if (a.kind === 'role')
        return request(url, { method: 'PATCH', body: { role: a.role }, handle: HANDLED });
      return request(url, { method: 'DELETE', handle: HANDLED });
    },
    onSettled: () => qc.invalidateQueries({ queryKey: keys.shares(datasetId) }),
  });
}

export function useSharedWithMe() {
  return useQuery({
    queryKey: keys.received,
    queryFn: () => request('/api/shared_datasets', { schema: z.array(sharedDatasetView) }),
  });
}

/** The caller's role on a dataset; a public dataset (`public:<id>`) has none (read only). */
export function useDatasetRole(datasetId: string | null) {
  return useQuery({
    queryKey: keys.role(datasetId ?? ''),
    queryFn: () => request(`${base(datasetId!)}/role`, { schema: datasetRoleView, handle: HANDLED }),
    enabled: datasetId !== null && !datasetId.startsWith('public:'),
  });
}

export function useLevelHistory(datasetId: string | null, level: string) {
  return useQuery({
    queryKey: keys.history(datasetId ?? '', level),
    queryFn: () =>
      request(`${base(datasetId!)}/annotation_levels/${encodeURIComponent(level)}/history`, {
        schema: z.array(historyEntryView),
        handle: HANDLED,
      }),
    enabled: datasetId !== null && level.startsWith('subset:'),
  });
}

export function useRestoreVersion(datasetId: string, level: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { version: number; expectedVersion?: number }) =>
      request(
        `${base(datasetId)}/annotation_levels/${encodeURIComponent(level)}/history/${v.version}/restore`,
        {
          method: 'POST',
          body: { expectedVersion: v.expectedVersion },
          schema: subsetView,
          handle: HANDLED,
        },
      ),
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: keys.history(datasetId, level) });
      void qc.invalidateQueries({ queryKey: subsetKeys.list(datasetId) });
    },
  });
}

export const sharingKeys = keys;
