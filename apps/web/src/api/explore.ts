import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { subsetView, type CreateSubsetBody, type SubsetView } from '@cellcloud/contracts/explore';
import { ApiError, request } from './client';
import { getSession } from './session';

/**
 * Explorer subsets (docs/product/api.md#dataset-calls user_datasets/{id}/observation_*). Mutations handle 400/404/409
 * themselves so the page shows the server's message inline. Artifact bytes are fetched by the
 * explorer's Web Worker (apps/web/src/features/explore/data), not here.
 */
const HANDLED = [400, 403, 404, 409];
const base = (datasetId: string) => `/api/user_datasets/${encodeURIComponent(datasetId)}`;
export const subsetKeys = { list: (datasetId: string) => ['explore', 'subsets', datasetId] as const };

export function useSubsets(datasetId: string | null) {
  return useQuery({
    queryKey: subsetKeys.list(datasetId ?? ''),
    queryFn: () => request(`${base(datasetId!)}/observation_subset`, { schema: z.array(subsetView) }),
    enabled: datasetId !== null,
  });
}

/** Per-cell label index of a subset (u32, 0xFFFFFFFF = not in the subset). */
export async function fetchSubsetCodes(datasetId: string, subsetId: string): Promise<Uint32Array> {
  const headers: Record<string, string> = {};
  const token = getSession()?.token;
  if (token) headers['access-token'] = token;
  const res = await fetch(`${base(datasetId)}/observation_subset/${encodeURIComponent(subsetId)}/codes`, {
    headers,
  });
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as { msg?: string } | null;
    throw new ApiError(res.status, res.status, body?.msg ?? res.statusText);
  }
  return new Uint32Array(await res.arrayBuffer());
}

type SubsetAction =
  | { kind: 'create'; body: CreateSubsetBody }
  | {
      kind: 'edit';
      body: { subsetId: string; name?: string; renames?: Record<string, string>; expectedVersion?: number };
    }
  | { kind: 'merge'; body: { subsetId: string; labels: string[]; into: string } }
  | { kind: 'map'; body: { subsetId: string; mapping: Record<string, string> } }
  | { kind: 'colours'; body: { subsetId: string; colours: Record<string, string> } }
  | { kind: 'delete'; subsetId: string };

const PATHS = {
  create: 'observation_subset',
  edit: 'observation_edit_subset',
  merge: 'observation_merge_subset',
  map: 'map_cell_type',
  colours: 'observation_color_manager',
} as const;

/** One mutation for every subset action; refreshes the list afterwards. */
export function useSubsetAction(datasetId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (a: SubsetAction): Promise<SubsetView | null> => {
      if (a.kind === 'delete') {
        await request(`${base(datasetId)}/observation_subset/${encodeURIComponent(a.subsetId)}`, {
          method: 'DELETE',
          handle: HANDLED,
        });
        return null;
      }
      return request(`${base(datasetId)}/${PATHS[a.kind]}`, {
        method: 'POST',
        body: a.body,
        schema: subsetView,
        handle: HANDLED,
      });
    },
    onSettled: () => qc.invalidateQueries({ queryKey: subsetKeys.list(datasetId) }),
  });
}
