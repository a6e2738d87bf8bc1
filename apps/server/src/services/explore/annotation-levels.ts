import type {
  AnnotationLevelView,
  CelltypeHierarchyAnswer,
  SaveAnnotationBody,
} from '@cellcloud/contracts/annotation-levels';
import { NOT_IN_SUBSET, type SubsetView } from '@cellcloud/contracts/explore';
import type { AppContext, AuthUser } from '../../context';
import { exploreSubsetsRepo } from '../../db/repos/explore-subsets';
import { taskObsColumns } from '../tasks/explorer-obs';
import { artifactPrefix } from './results';
import type { Labelled } from './relabel';
import { createSubset, editSubset, groupingOf, manifestOf } from './subsets';

/**
 * docs/product/api.md#annotation-calls annotation calls (issue 13) over the explorer's stored artifacts, completed tasks'
 * per-cell columns (annot_auto / annot_sub of a run from the tab) and subsets: the levels of a
 * dataset, a hand edit saved as a new level, per-cluster majority labels, and the
 * annot_full → annot_sub → annot_sub2 hierarchy.
 */
function counts(l: Labelled): number[] {
  const c = new Array<number>(l.labels.length).fill(0);
  for (const k of l.codes) if (k !== NOT_IN_SUBSET && k < c.length) c[k]! += 1;
  return c;
}

export async function listAnnotationLevels(
  ctx: AppContext,
  user: AuthUser,
  datasetId: string,
): Promise<AnnotationLevelView[]> {
  const prefix = await artifactPrefix(ctx, user, datasetId);
  const m = await manifestOf(ctx, prefix);
  const out: AnnotationLevelView[] = [];
  for (const o of m.obs) {
    if (o.kind !== 'categorical') continue;
    out.push({
      key: o.key,
      name: o.key,
      source: 'analysis',
      labels: o.labels,
      counts: counts(await groupingOf(ctx, prefix, datasetId, o.key)),
    });
  }
  for (const [key, c] of await taskObsColumns(ctx, datasetId)) {
    if (c.obs.kind !== 'categorical' || m.obs.some((o) => o.key === key)) continue;
    out.push({
      key,
      name: key,
      source: 'task',
      labels: c.obs.labels,
      counts: counts(await groupingOf(ctx, prefix, datasetId, key)),
    });
  }
  for (const s of await exploreSubsetsRepo.list(ctx.db, datasetId)) {
    out.push({ key: `subset:${s.id}`, name: s.name, source: 'saved', labels: s.labels, counts: s.counts });
  }
  return out;
}

/** A copy of the level under a new name with the renames applied (the original level is kept). */
export async function saveAnnotation(
  ctx: AppContext,
  user: AuthUser,
  datasetId: string,
  body: SaveAnnotationBody,
): Promise<SubsetView> {
  const copy = await createSubset(ctx, user, datasetId, { from: 'copy', name: body.name, key: body.key });
  if (!Object.keys(body.renames).length) return copy;
  return editSubset(ctx, user, datasetId, { subsetId: copy.id, renames: body.renames });
}

function majority(
  level: Labelled,
  groups: Labelled,
): { group: string; label: string; cells: number; confidence: number }[] {
  const nL = level.labels.length;
  const tab = new Float64Array(groups.labels.length * nL);
  level.codes.forEach((l, i) => {
    const g = groups.codes[i]!;
    if (l === NOT_IN_SUBSET || g === NOT_IN_SUBSET || l >= nL || g >= groups.labels.length) return;
    tab[g * nL + l]! += 1;
  });
  const out: { group: string; label: string; cells: number; confidence: number }[] = [];
  groups.labels.forEach((group, g) => {
    let total = 0;
    let best = 0;
    for (let l = 0; l < nL; l++) {
      total += tab[g * nL + l]!;
      if (tab[g * nL + l]! > tab[g * nL + best]!) best = l;
    }
    if (total > 0)
      out.push({ group, label: level.labels[best]!, cells: total, confidence: tab[g * nL + best]! / total });
  });
  return out;
}

export async function embeddingAnnotation(
  ctx: AppContext,
  user: AuthUser,
  datasetId: string,
  key: string,
  clusterKey: string,
) {
  const prefix = await artifactPrefix(ctx, user, datasetId);
  const rows = majority(
    await groupingOf(ctx, prefix, datasetId, key),
    await groupingOf(ctx, prefix, datasetId, clusterKey),
  );
  return {
    key,
    clusterKey,
    clusters: rows.map((r) => ({
      cluster: r.group,
      cells: r.cells,
      label: r.label,
      confidence: r.confidence,
    })),
  };
}

export const HIERARCHY = ['annot_full', 'annot_sub', 'annot_sub2'] as const;

export async function celltypeHierarchy(
  ctx: AppContext,
  user: AuthUser,
  datasetId: string,
): Promise<CelltypeHierarchyAnswer> {
  const prefix = await artifactPrefix(ctx, user, datasetId);
  const m = await manifestOf(ctx, prefix);
  const tasks = await taskObsColumns(ctx, datasetId);
  const levels = HIERARCHY.filter(
    (k) =>
      m.obs.some((o) => o.key === k && o.kind === 'categorical') || tasks.get(k)?.obs.kind === 'categorical',
  );
  const nodes: CelltypeHierarchyAnswer['nodes'] = [];
  let parent: { key: string; level: Labelled } | undefined;
  for (const key of levels) {
    const level = await groupingOf(ctx, prefix, datasetId, key);
    const parents = parent
      ? new Map(majority(parent.level, level).map((r) => [r.group, r.label]))
      : undefined;
    const c = counts(level);
    level.labels.forEach((label, i) => {
      if (!c[i]) return;
      const p = parents?.get(label);
      nodes.push({
        level: key,
        label,
        cells: c[i]!,
        parent: p && parent ? { level: parent.key, label: p } : null,
      });
    });
    parent = { key, level };
  }
  return { levels: [...levels], nodes };
}
