import type { Locale } from '@cellcloud/contracts';
import type { TaskDefaultsView } from '@cellcloud/contracts/tasks/api';
import type { TaskDefinition } from '@cellcloud/contracts/tasks/define';
import { findTask } from '@cellcloud/tasks/contract';
import type { AppContext, AuthUser } from '../../context';
import { analysisTasksRepo } from '../../db/repos/analysis-tasks';
import type { JobRow } from '../../db/repos/jobs';
import { AppError } from '../../errors';
import { registerMessages, translate } from '../../i18n/translate';
import { listAnnotationLevels } from '../explore/annotation-levels';
import { resolveDefaults, type DatasetFacts, type ResolvedDefaults } from './defaults-rules';

/**
 * One place for the dataset-dependent defaults of every analysis task (issue 31): the facts of
 * the stored result (species, tissue, annotation levels with their cell counts, earlier runs)
 * go through the pure rules of defaults-rules.ts. createTask fills them into the missing params
 * before validation, and `GET …/tasks/defaults?task=` shows them with a reason per field, so the
 * API, the CLI and the web run form run the same thing when nothing is chosen.
 */

registerMessages({
  'en-US': {
    'tasks.defaults.level.auto': 'Cell types of the automatic annotation "{level}" (its finest level).',
    'tasks.defaults.level.cluster': 'The clusters ("{level}"): the dataset has no automatic annotation.',
    'tasks.defaults.level.other':
      'The annotation level "{level}": the dataset has no annotation or clusters.',
    'tasks.defaults.noLevel': 'The dataset has no annotation level to group cells by; choose one.',
    'tasks.defaults.sampleLevel': 'The samples of the dataset ("{level}").',
    'tasks.defaults.reference':
      'The immune and stromal cell types of "{level}" as normal reference: {types}.',
    'tasks.defaults.referenceAllImmune':
      'Every cell type of "{level}" is immune or stromal, so "{observed}" (the largest) is analysed and the others are the normal reference: {types}. Choose the reference yourself for a meaningful call.',
    'tasks.defaults.noReference':
      'No immune or stromal cell type (T, NK, B, plasma, myeloid, monocyte, macrophage, DC, mast, neutrophil, fibroblast, endothelial, pericyte…) was found in "{level}". Choose the normal reference cell types.',
    'tasks.defaults.species': 'The species of the dataset ({species}).',
    'tasks.defaults.tissue': 'The tissue recorded with the analysis ({tissue}).',
    'tasks.defaults.noTissue': 'The analysis records no tissue type. Please specify the tissue type.',
    'tasks.defaults.builtinSet': 'The built-in cell-cycle G2/M gene set (meaningful in any tissue).',
    'tasks.defaults.source': 'The newest differential expression run of this dataset.',
    'tasks.defaults.groups': 'The largest cell type of "{level}" ({label}) against all the others.',
  },
  'zh-CN': {
    'tasks.defaults.level.auto': '自动注释“{level}”的细胞类型（最细的注释层级）。',
    'tasks.defaults.level.cluster': '聚类（“{level}”）：数据集没有自动注释。',
    'tasks.defaults.level.other': '注释层级“{level}”：数据集没有注释或聚类。',
    'tasks.defaults.noLevel': '数据集没有可用于分组细胞的注释层级，请选择一个。',
    'tasks.defaults.sampleLevel': '数据集的样本（“{level}”）。',
    'tasks.defaults.reference': '以“{level}”中的免疫和基质细胞类型作为正常参照：{types}。',
    'tasks.defaults.referenceAllImmune':
      '“{level}”中的所有细胞类型都是免疫或基质细胞，因此分析最大的“{observed}”，其余作为正常参照：{types}。如需有意义的结果，请自行选择参照。',
    'tasks.defaults.noReference':
      '在“{level}”中没有找到免疫或基质细胞类型（T、NK、B、浆细胞、髓系、单核、巨噬、DC、肥大、中性粒、成纤维、内皮、周细胞等）。请选择正常参照细胞类型。',
    'tasks.defaults.species': '数据集的物种（{species}）。',
    'tasks.defaults.tissue': '分析记录的组织类型（{tissue}）。',
    'tasks.defaults.noTissue': '分析没有记录组织类型。请指定组织类型。',
    'tasks.defaults.builtinSet': '内置的细胞周期 G2/M 基因集（适用于任何组织）。',
    'tasks.defaults.source': '本数据集最新的差异表达结果。',
    'tasks.defaults.groups': '“{level}”中最大的细胞类型（{label}）对比其余所有类型。',
  },
});

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
): Promise<TaskDefaultsView> {
  const def = findTask(task);
  if (!def) throw new AppError('NOT_FOUND', { task }, 'tasks.unknown');
  return view(def, resolveDefaults(def, await datasetFacts(ctx, user, job, datasetId), {}), locale);
}
