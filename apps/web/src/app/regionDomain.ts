import type { CriteriaIpAddress } from '@cellcloud/contracts/account';
import type { Locale } from '@cellcloud/contracts/locale';

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

/**
 * The language the region check sets when the user picked none: only when the server has regional
 * domains configured (a deployment with a China and an international site). Without them the
 * browser's language stands (a zh-CN browser on a fresh install gets Chinese).
 */
export function regionDefaultLocale(region: CriteriaIpAddress): Locale | null {
  if (!region.domains) return null;
  return isChina(region) ? 'zh-CN' : 'en-US';
}
