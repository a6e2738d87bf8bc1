import type { RegulonsParams } from '../contract';
import { gunzipBytes, TaskError } from '@cellcloud/engine/tasks/kit';
import type { ResourceReader } from '@cellcloud/engine/tasks/kit';

/**
 * Pruning of co-expression modules into regulons (pySCENIC's step 2, `prune2df` against cisTarget
 * motif rankings). Motif-ranking databases cannot be shipped with CellCloud, so the default pruner
 * keeps the module targets with DoRothEA evidence for the TF (confidence A..`confidence`). The step
 * is an interface: a pruner names its candidate TFs, the targets worth boosting, and the targets it
 * keeps of a module. A cisTarget ranking database is configured by the `rankings` parameter (a path
 * inside the resources folder, like every other reference resource); reading it is not implemented,
 * so a configured database is refused with a message instead of silently falling back.
 */
export interface RegulonPruner {
  /** Evidence source, for the summary ('dorothea A–C', a rankings path…). */
  source: string;
  /** Candidate regulators, sorted. */
  tfs: readonly string[];
  /** Targets that can survive pruning for `tf` (only those need a regression); undefined = any. */
  candidates(tf: string): ReadonlySet<string> | undefined;
  /** Targets of a module of `tf` kept in its regulon. */
  prune(tf: string, module: readonly string[]): string[];
}

/** DoRothEA evidence: TF → targets with confidence A..`maxLevel`. */
export async function loadDorothea(
  resources: ResourceReader,
  species: 'human' | 'mouse',
  maxLevel: string,
): Promise<Map<string, Set<string>>> {
  const file = `tf_regulons/dorothea_${species === 'human' ? 'hs' : 'mm'}.tsv.gz`;
  const text = new TextDecoder().decode(await gunzipBytes(await resources.readBytes(file), file));
  const out = new Map<string, Set<string>>();
  const lines = text.split('\n');
  for (let i = 1; i < lines.length; i++) {
    const [tf, conf, target] = lines[i]!.split('\t');
    if (!tf || !conf || !target || conf > maxLevel) continue;
    let s = out.get(tf);
    if (!s) out.set(tf, (s = new Set()));
    s.add(target);
  }
  return out;
}

/** The default pruner: module targets ∩ the TF's DoRothEA evidence. */
export function dorotheaPruner(evidence: Map<string, Set<string>>, maxLevel: string): RegulonPruner {
  return {
    source: `DoRothEA A–${maxLevel}`,
    tfs: [...evidence.keys()].sort(),
    candidates: (tf) => evidence.get(tf) ?? new Set(),
    prune: (tf, module) => {
      const allowed = evidence.get(tf);
      return allowed ? module.filter((g) => allowed.has(g)) : [];
    },
  };
}

/** The pruner the parameters ask for: DoRothEA, or the cisTarget rankings at `rankings`. */
export async function loadPruner(
  resources: ResourceReader,
  species: 'human' | 'mouse',
  params: Pick<RegulonsParams, 'confidence' | 'rankings'>,
): Promise<RegulonPruner> {
  if (params.rankings) {
    if (!(await resources.exists(params.rankings)))
      throw new TaskError(
        'common.resourceMissing',
        `The reference resource "${params.rankings}" is not installed.`,
        {
          path: params.rankings,
        },
      );
    throw new TaskError(
      'regulons.rankingsUnsupported',
      `cisTarget motif rankings ("${params.rankings}") are configured, but pruning against motif rankings is not available in this version; leave the rankings setting empty to prune against DoRothEA evidence.`,
      { path: params.rankings },
    );
  }
  return dorotheaPruner(await loadDorothea(resources, species, params.confidence), params.confidence);
}
