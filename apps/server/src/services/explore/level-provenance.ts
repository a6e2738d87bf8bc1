import type { AppContext } from '../../context';
import { annotationHistoryRepo } from '../../db/repos/annotation-history';
import { exploreSubsetsRepo } from '../../db/repos/explore-subsets';

/** Who curated a saved level and its last change (docs/product/sharing.md#provenance). */
export interface LevelProvenance {
  subsetId: string;
  name: string;
  version: number;
  authors: string[];
  lastAuthor: string | null;
  lastChange: string;
  lastAction: string;
}

/**
 * The provenance of a dataset's saved levels from their recorded history (issue 35): the exported
 * h5ad carries it in `uns['cellcloud_curation']`, the methods report names it.
 */
export async function levelProvenance(ctx: AppContext, datasetId: string): Promise<LevelProvenance[]> {
  const names = new Map((await exploreSubsetsRepo.list(ctx.db, datasetId)).map((s) => [s.id, s.name]));
  return (await annotationHistoryRepo.provenance(ctx.db, datasetId))
    .filter((p) => names.has(p.subset_id))
    .map((p) => ({
      subsetId: p.subset_id,
      name: names.get(p.subset_id)!,
      version: p.version,
      authors: (typeof p.authors === 'string' ? (JSON.parse(p.authors) as string[]) : p.authors).sort(),
      lastAuthor: p.last_author,
      lastChange: new Date(p.last_at).toISOString(),
      lastAction: p.last_action,
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}
