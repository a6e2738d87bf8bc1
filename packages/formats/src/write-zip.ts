import { zipSync } from 'fflate';

/**
 * A zip archive of named files (paths inside the archive use '/'). Files already compressed
 * (`.gz`) are stored, the rest deflated.
 */
export function zipFiles(files: Record<string, Uint8Array>): Uint8Array {
  const entries: Record<string, [Uint8Array, { level: 0 | 6 }]> = {};
  for (const [name, bytes] of Object.entries(files))
    entries[name] = [bytes, { level: name.endsWith('.gz') ? 0 : 6 }];
  return zipSync(entries);
}
