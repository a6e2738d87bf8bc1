import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { analysisParams, type AnalysisParams } from '@cellcloud/contracts';

/** Engine version, read from its package.json (services never import the engine itself). */
export const ENGINE_VERSION: string = (
  JSON.parse(readFileSync(new URL('../../../../packages/engine/package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;

export interface CacheInput {
  /** Content hash of each input dataset with the name/group the result labels it by. */
  samples: { contentHash: string; name: string; group: string }[];
  params: unknown;
}

/**
 * Result-cache key: sha256 over the input datasets' content hashes (in order, with their sample
 * names and groups, which label the result), the normalized parameters (defaults applied, keys
 * sorted) and the engine version. Identical submissions → identical key → reused result.
 */
export function resultCacheKey(input: CacheInput, engineVersion = ENGINE_VERSION): string {
  const params: AnalysisParams = analysisParams.parse(input.params);
  const canonical = JSON.stringify({
    samples: input.samples,
    params: sortKeys(params),
    engine: engineVersion,
  });
  return createHash('sha256').update(canonical).digest('hex');
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object') {
    return Object.fromEntries(
      Object.keys(v as object)
        .sort()
        .map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]),
    );
  }
  return v;
}
