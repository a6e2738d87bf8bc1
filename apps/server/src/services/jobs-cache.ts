import { createHash } from 'node:crypto';
import { analysisParams, type AnalysisParams } from '@cellcloud/contracts';
import { engineIdentity } from '@cellcloud/engine/identity';

/**
 * The engine identity results of this deployment carry (`<version>+<content hash>` of the engine's
 * sources, dependencies, Node version and the reference resources in `resourcesDir`; engine
 * identity.ts, docs/reproducibility.md). identity.ts reads files only (no WebAssembly), so services
 * may import it. Computed once per process and folder.
 */
export function currentEngineVersion(resourcesDir?: string): string {
  return engineIdentity(resourcesDir).id;
}

export interface CacheInput {
  /** Content hash of each input dataset with the name/group the result labels it by. */
  samples: { contentHash: string; name: string; group: string }[];
  params: unknown;
}

/**
 * Result-cache key: sha256 over the input datasets' content hashes (in order, with their sample
 * names and groups, which label the result), the normalized parameters (defaults applied, keys
 * sorted) and the engine identity (currentEngineVersion): a result of another engine is never
 * reused. Identical submissions → identical key → reused result.
 */
export function resultCacheKey(input: CacheInput, engineVersion: string): string {
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
