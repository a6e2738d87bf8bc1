import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  PUBLIC_PATHS,
  datasetMappingRelation,
  publicDatasetDetail,
  publicSearchResult,
  type PublicFacet,
} from '@cellcloud/contracts/public-datasets';
import { request } from './client';

/** The public standardized dataset database (issue 20). */
export interface PublicSearchState {
  q: string;
  filters: Partial<Record<PublicFacet, string[]>>;
  sort: 'updated' | 'title' | 'cells' | 'year';
  order: 'asc' | 'desc';
  page: number;
  pageSize: number;
}

export function usePublicSearch(s: PublicSearchState) {
  const query: Record<string, unknown> = {
    q: s.q || undefined,
    sort: s.sort,
    order: s.order,
    page: s.page,
    pageSize: s.pageSize,
  };
  for (const [k, v] of Object.entries(s.filters)) if (v?.length) query[k] = v.join(',');
  return useQuery({
    queryKey: ['publicdb', 'search', query],
    queryFn: () => request(PUBLIC_PATHS.list, { query, schema: publicSearchResult }),
    placeholderData: keepPreviousData,
  });
}

export function usePublicDataset(id: string | null) {
  return useQuery({
    queryKey: ['publicdb', 'detail', id],
    enabled: !!id,
    queryFn: () => request(PUBLIC_PATHS.one(id!), { schema: publicDatasetDetail }),
  });
}

export function usePublicMapping(id: string | null) {
  return useQuery({
    queryKey: ['publicdb', 'mapping', id],
    enabled: !!id,
    queryFn: () => request(PUBLIC_PATHS.datasetMappingRelation(id!), { schema: datasetMappingRelation }),
  });
}
