import type { CriteriaIpAddress } from '@cellcloud/contracts/account';

/** The domain the visitor should be on, or null when it already is (or none are configured). */
export function targetDomain(region: CriteriaIpAddress, hostname: string): string | null {
  if (!region.domains) return null;
  const want = region.countryIsoCode === 'CN' ? region.domains.cn : region.domains.global;
  const other = region.countryIsoCode === 'CN' ? region.domains.global : region.domains.cn;
  const host = hostname.toLowerCase();
  const bare = (d: string) => d.toLowerCase().replace(/:\d+$/, '');
  return host === bare(other) ? want : null;
}

export function isChina(region: CriteriaIpAddress | undefined): boolean {
  return region?.countryIsoCode === 'CN';
}
