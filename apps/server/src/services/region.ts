import net from 'node:net';
import type { CriteriaIpAddress } from '@cellcloud/contracts';
import type { Config } from '../config';

type Lookup = (ip: string) => { country: string } | null;
let lookupPromise: Promise<Lookup> | undefined;

/** geoip-lite loads ~100 MB of offline data on import: load it once, on first use only. */
function geoLookup(): Promise<Lookup> {
  lookupPromise ??= import('geoip-lite').then((m) => {
    const g = (m.default ?? m) as { lookup: Lookup };
    return (ip: string) => g.lookup(ip);
  });
  return lookupPromise;
}

/** Loopback, private, link-local, CGNAT and unique-local addresses have no country. */
export function isPrivateIp(ip: string): boolean {
  const v4 = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  if (net.isIPv4(v4)) {
    const [a, b] = v4.split('.').map(Number) as [number, number];
    return (
      a === 10 ||
      a === 127 ||
      a === 0 ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 100 && b >= 64 && b <= 127)
    );
  }
  const l = ip.toLowerCase();
  return l === '::1' || l === '::' || l.startsWith('fe80:') || l.startsWith('fc') || l.startsWith('fd');
}

/**
 * GET /account/criteriaIpAddress: the caller's country from the offline GeoIP data (request.ip
 * already honours X-Forwarded-For when TRUST_PROXY is set). Private addresses and unknown
 * ones → DEFAULT_COUNTRY. `domains` are the configured China/international domains.
 */
export async function regionOf(
  config: Pick<Config, 'defaultCountry' | 'domains'>,
  ip: string,
): Promise<CriteriaIpAddress> {
  let country = config.defaultCountry;
  if (ip && !isPrivateIp(ip)) {
    const hit = (await geoLookup())(ip.startsWith('::ffff:') ? ip.slice(7) : ip);
    if (hit?.country) country = hit.country;
  }
  const { cn, intl } = config.domains;
  return { countryIsoCode: country, domains: cn && intl ? { cn, global: intl } : null };
}
