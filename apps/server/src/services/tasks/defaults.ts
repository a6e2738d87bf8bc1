import type { Locale } from '@cellcloud/contracts';
import type { TaskDefaultsView } from '@cellcloud/contracts/tasks/api';
import type { TaskDefinition } from '@cellcloud/contracts/tasks/define';
import {
  DEFAULT_MESSAGES,
  findTask,
  resolveDefaults,
  type DatasetFacts,
  type ResolvedDefaults,
} from '@cellcloud/tasks/contract';
import type { AppContext, AuthUser } from '../../context';
import { analysisTasksRepo } from '../../db/repos/analysis-tasks';
import type { JobRow } from '../../db/repos/jobs';
import { AppError } from '../../errors';
import { registerMessages, translate } from '../../i18n/translate';
import { listAnnotationLevels } from '../explore/annotation-levels';

/**
 * One place for the dataset-dependent defaults of every analysis task (issue 31): the facts of
 * the stored result (species, tissue, annotation levels with their cell counts, earlier runs)
 * go through the pure rules of @cellcloud/tasks (_shared/contract/defaults.ts, which the CLI uses too). createTask fills them into the missing params
 * before validation, and `GET …/tasks/defaults?task=` shows them with a reason per field, so the
 * API, the CLI and the web run form run the same thing when nothing is chosen.
 */

registerMessages(DEFAULT_MESSAGES);

/** The tissue the wizard recorded with the analysis (job params `referenceTissue` or the draft's tissue). */
function tissueOf(job: JobRow): string | undefined {
  const fromParams = job.params?.referenceTissue;
  if (typeof fromParams === 'string' && fromParams.trim()) return fromParams.trim();
  const param = (job.draft as { param?: { tissue?: unknown } } | undefined)?.param;
  return typeof param?.tissue === 'string' && param.tissue.trim() ? param.tissue.trim() : undefined;
}

/** What the rules read of a dataset: its species, tissue, annotation levels and earlier DE runs. */
export async function datasetFacts(
  ctx: AppContext,
  user: AuthUser,
  job: JobRow,
  datasetId: string,
): Promise<DatasetFacts> {
  const levels = await listAnnotationLevels(ctx, user, datasetId);
  const done = await analysisTasksRepo.completedOfResult(ctx.db, datasetId);
  const deg = done.filter((t) => t.task === 'deg-groups').at(-1);
  return {
    species: job.species,
    tissue: tissueOf(job),
    levels: levels.map((l) => ({ key: l.key, labels: l.labels, counts: l.counts })),
    ...(deg ? { latestDegGroups: deg.id } : {}),
  };
}

/**
 * The params of a run with the dataset's defaults filled into the absent fields; a field no rule
 * can fill (e.g. CNV without any immune or stromal type) answers 400 with the explanation.
 */
export async function withDefaults(
  ctx: AppContext,
  user: AuthUser,
  job: JobRow,
  datasetId: string,
  def: TaskDefinition,
  params: Record<string, unknown>,
  uploads: readonly string[],
): Promise<Record<string, unknown>> {
  const r = resolveDefaults(def, await datasetFacts(ctx, user, job, datasetId), params, uploads);
  const first = r.missing[0];
  if (first) throw new AppError('VALIDATION_FAILED', first.vars, first.key);
  return r.params;
}

function view(def: TaskDefinition, r: ResolvedDefaults, locale: Locale): TaskDefaultsView {
  const text = (n: ResolvedDefaults['notes'][number]) => ({
    field: n.field,
    text: translate(locale, n.key, n.vars),
  });
  return { task: def.name, params: r.params, reasons: r.notes.map(text), missing: r.missing.map(text) };
}

/** `GET …/tasks/defaults?task=`: the resolved params of a run with nothing chosen, a reason per field. */
export async function taskDefaults(
  ctx: AppContext,
  user: AuthUser,
  job: JobRow,
  datasetId: string,
  task: string,
  locale: Locale,
  uploads: readonly string[] = [],
): Promise<TaskDefaultsView> {
  const def = findTask(task);
  if (!def) throw new AppError('NOT_FOUND', { task }, 'tasks.unknown');
  // only the task's own upload names count (the form sends those it holds a file for)
  const held = uploads.filter((u) => (def.uploads ?? []).some((d) => d.name === u));
  return view(def, resolveDefaults(def, await datasetFacts(ctx, user, job, datasetId), {}, held), locale);
}
