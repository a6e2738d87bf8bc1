/**
 * What is left of an approved download, rounded up: right after a 7-day approval it is "7 days
 * left" (rounding down showed 6), the last day counts in hours, an expired link 0 hours.
 */
export function remainingValidity(expiresAt: string, now = Date.now()): { days: number } | { hours: number } {
  const ms = Date.parse(expiresAt) - now;
  const hours = Math.ceil(ms / 3_600_000);
  return hours > 24 ? { days: Math.ceil(ms / 86_400_000) } : { hours: Math.max(0, hours) };
}
