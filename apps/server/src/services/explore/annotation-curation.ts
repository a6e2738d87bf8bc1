import type { SubsetView } from '@cellcloud/contracts/explore';
import type { HistoryEntryView } from '@cellcloud/contracts/sharing';
import type { AppContext, AuthUser } from '../../context';
import { annotationHistoryRepo } from '../../db/repos/annotation-history';
import { AppError } from '../../errors';
import { commitChange, toHistoryView } from './annotation-history';
import { artifactPrefix, writableArtifactPrefix } from './results';
import { subsetOf, toView } from './subsets';

/**
 * Curation calls of a saved level (issue 35, docs/product/sharing.md#annotation-history): its
 * change history, restoring an earlier version (itself a recorded change), and a label's note
 * with the marker genes that justified it. Levels of the analysis or of tasks are not edited in
 * place (a hand edit saves a new level), so their history is empty.
 */
const subsetIdOf = (level: string) => (level.startsWith('subset:') ? level.slice(7) : undefined);

export async function levelHistory(
  ctx: AppContext,
  user: AuthUser,
  datasetId: string,
  level: string,
): Promise<HistoryEntryView[]> {
  await artifactPrefix(ctx, user, datasetId);
  const id = subsetIdOf(level);
  if (!id) return [];
  const row = await subsetOf(ctx, datasetId, id);
  return (await annotationHistoryRepo.list(ctx.db, datasetId, row.id)).map(toHistoryView);
}

export async function restoreVersion(
  ctx: AppContext,
  user: AuthUser,
  datasetId: string,
  level: string,
  version: number,
  expectedVersion: number | undefined,
): Promise<SubsetView> {
  await writableArtifactPrefix(ctx, user, datasetId);
  const id = subsetIdOf(level);
  if (!id) throw new AppError('NOT_FOUND', { version }, 'annotation.history.notFound');
  const row = await subsetOf(ctx, datasetId, id);
  const target = await annotationHistoryRepo.get(ctx.db, row.id, version);
  if (!target) throw new AppError('NOT_FOUND', { version }, 'annotation.history.notFound');
  const merged =
    target.labels.length !== row.labels.length || target.labels.some((l, i) => row.labels[i] !== l);
  return toView(
    await commitChange(ctx, user, row, expectedVersion, {
      action: 'restore',
      fields: {
        labels: target.labels,
        colours: target.colours,
        counts: target.counts,
        notes: target.notes,
        clusterGenes: merged ? 'stale' : row.cluster_genes,
      },
      codesKey: target.codes_key,
      restoredFrom: version,
    }),
  );
}

export async function setLabelNote(
  ctx: AppContext,
  user: AuthUser,
  datasetId: string,
  body: { subsetId: string; label: string; note: string; markers: string[]; expectedVersion?: number },
): Promise<SubsetView> {
  await writableArtifactPrefix(ctx, user, datasetId);
  const row = await subsetOf(ctx, datasetId, body.subsetId);
  if (!row.labels.includes(body.label))
    throw new AppError('VALIDATION_FAILED', { label: body.label }, 'annotation.label.unknown');
  const notes = { ...row.notes };
  const markers = [...new Set(body.markers.map((m) => m.trim()).filter(Boolean))];
  if (!body.note.trim() && !markers.length) delete notes[body.label];
  else notes[body.label] = { note: body.note.trim(), markers };
  return toView(
    await commitChange(ctx, user, row, body.expectedVersion, { action: 'notes', fields: { notes } }),
  );
}
