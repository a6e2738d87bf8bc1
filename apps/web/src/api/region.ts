import { useQuery } from '@tanstack/react-query';
import { accountPaths } from '@cellcloud/contracts/paths';
import type { CriteriaIpAddress } from '@cellcloud/contracts/account';
import { request } from './client';

/** Checked by hand (no zod): the region lookup runs on every first load. */
function asRegion(v: unknown): CriteriaIpAddress {
  const r = (typeof v === 'object' && v !== null ? v : {}) as Record<string, unknown>;
  const d = r.domains as Record<string, unknown> | null | undefined;
  const domains =
    d && typeof d.cn === 'string' && typeof d.global === 'string' ? { cn: d.cn, global: d.global } : null;
  return { countryIsoCode: typeof r.countryIsoCode === 'string' ? r.countryIsoCode : '', domains };
}

/** GET /account/criteriaIpAddress: the visitor's region; failures are silent (default: global). */
export function useRegion() {
  return useQuery({
    queryKey: ['account', 'region'],
    queryFn: async () =>
      asRegion(
        await request(accountPaths.criteriaIpAddress, { handle: [0, 400, 401, 403, 404, 500, 502, 503] }),
      ),
    staleTime: Infinity,
  });
}
