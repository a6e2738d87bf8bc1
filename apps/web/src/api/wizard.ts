import { useQuery } from '@tanstack/react-query';
import { cellFilteringStatus, draftView, type WizardDraftInput } from '@cellcloud/contracts/wizard';
import { valueKind } from '@cellcloud/contracts/files';
import { z } from 'zod';
import { request } from './client';
import { JOB_STATUSES } from './jobs';
import { PATHS } from '@cellcloud/contracts/api-paths';

/** The initiate-analysis wizard: selectable samples, drafts, the cell-filtering evaluation. */
export const wizardKeys = {
  samples: ['wizard', 'samples'] as const,
  draft: (id: string) => ['wizard', 'draft', id] as const,
  cellFiltering: (id: string) => ['wizard', 'cellFiltering', id] as const,
};

export const analysableSample = z.object({
  id: z.string(),
  name: z.string(),
  species: z.string().nullable(),
  cells: z.number(),
  genes: z.number(),
  format: z.string(),
  umiMedian: z.number().default(0),
  valueKind: valueKind.default('counts'),
});
export type AnalysableSample = z.infer<typeof analysableSample>;

/** `source` 'public' / 'both' adds the public database datasets (ids `public:<datasetId>`). */
export function useAnalysableSamples(source: 'local' | 'public' | 'both' = 'local') {
  return useQuery({
    queryKey: [...wizardKeys.samples, source],
    queryFn: () =>
      request(PATHS.drafts.samples, {
        query: source === 'local' ? undefined : { source },
        schema: z.array(analysableSample),
      }),
  });
}

export function useDrafts() {
  return useQuery({
    queryKey: ['wizard', 'drafts'],
    queryFn: () => request(PATHS.drafts.list, { schema: z.array(draftView) }),
  });
}

export const deleteDraft = (id: string) => request(PATHS.drafts.one(id), { method: 'DELETE' });

export function useDraft(id: string | null) {
  return useQuery({
    queryKey: wizardKeys.draft(id ?? ''),
    enabled: !!id,
    queryFn: () => request(PATHS.drafts.one(id!), { schema: draftView }),
  });
}

/** Save as draft: creates it the first time, updates it afterwards. */
export const saveDraft = (draft: WizardDraftInput, id?: string) =>
  request(id ? PATHS.drafts.one(id) : PATHS.drafts.list, {
    method: id ? 'PUT' : 'POST',
    body: draft,
    schema: draftView,
    handle: JOB_STATUSES,
  });

export const startCellFiltering = (id: string) =>
  request(PATHS.drafts.cellFiltering(id), { method: 'POST', schema: draftView, handle: JOB_STATUSES });
export const discardCellFiltering = (id: string) =>
  request(PATHS.drafts.cellFiltering(id), { method: 'DELETE', schema: draftView });

const cellFilteringState = z.object({
  status: cellFilteringStatus,
  message: z.string().nullable(),
  result: z.unknown(),
});

/** Evaluation state; polls every 2 s while running (the SSE stream also refreshes it). */
export function useCellFiltering(id: string | null, enabled: boolean) {
  return useQuery({
    queryKey: wizardKeys.cellFiltering(id ?? ''),
    enabled: !!id && enabled,
    queryFn: () => request(PATHS.drafts.cellFiltering(id!), { schema: cellFilteringState }),
    refetchInterval: (q) => (q.state.data?.status === 'running' ? 2000 : false),
  });
}
