import type { TaskDefinition } from '@cellcloud/contracts/tasks/define';

/**
 * Dataset-dependent defaults of the analysis tasks (issue 31), pure: what the dataset is
 * (`DatasetFacts`, gathered by the server's services/tasks/defaults.ts or the CLI from the h5ad) → the params a run with nothing chosen takes, with a
 * message key per resolved field saying why. Keyed by the contract's param names and field hints,
 * so a task gets them by declaring the param: the rules are documented per task in the
 * "Defaults" section of docs/methods/<task>.md.
 */

export interface LevelFact {
  key: string;
  labels: readonly string[];
  /** Cells per label (same order). */
  counts: readonly number[];
}

export interface DatasetFacts {
  species: string;
  /** The tissue recorded with the analysis (wizard "tissue type"), when any. */
  tissue?: string;
  /** Categorical annotation levels: the analysis' own, completed tasks' and saved subsets. */
  levels: readonly LevelFact[];
  /** The newest completed differential-expression run (deg-groups) of the dataset. */
  latestDegGroups?: string;
}

/** A resolved field (or one that could not be) and the message key explaining it, with its values. */
export interface DefaultNote {
  field: string;
  key: string;
  vars: Record<string, string | number>;
}

export interface ResolvedDefaults {
  params: Record<string, unknown>;
  notes: DefaultNote[];
  /** Required fields no rule could fill, with the explanation. */
  missing: DefaultNote[];
}

/** Automatic annotation levels, preferred first: the task's final labels, then label transfer, finest first. */
export const AUTO_LEVELS = [
  'annot_auto',
  'annot_sub2',
  'annot_sub',
  'annot_full',
  'annot_auto_major',
] as const;
/** Labels that are not a cell type (cells outside a subset / not annotated). */
const NOT_A_TYPE = new Set(['other', 'unassigned', 'na', 'unknown', '']);

/** Built-in gene set of cell score when none is chosen: cell-cycle G2/M genes, meaningful in any tissue. */
export const DEFAULT_CELL_SCORE_SET = 'cellCycleG2M';

/**
 * Words naming immune and stromal cell types (docs/methods/cnv.md "Defaults"): a label is a
 * reference type when one of its words (lower case, split at anything but letters and digits,
 * a plural "s" and a trailing number dropped — cDC2 → cdc — except CD markers) is in this list.
 */
export const CNV_REFERENCE_WORDS = [
  't',
  'nk',
  'nkt',
  'b',
  'plasma',
  'plasmablast',
  'lymphocyte',
  'treg',
  'mait',
  'ilc',
  'myeloid',
  'mono',
  'monocyte',
  'macrophage',
  'dc',
  'pdc',
  'cdc',
  'dendritic',
  'mast',
  'neutrophil',
  'granulocyte',
  'immune',
  'fibroblast',
  'caf',
  'endothelial',
  'endothelium',
  'pericyte',
  'stromal',
  'smooth',
] as const;
const REFERENCE_WORDS = new Set<string>(CNV_REFERENCE_WORDS);

function words(label: string): string[] {
  return label
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .map((w) => (w.length > 2 && w.endsWith('s') ? w.slice(0, -1) : w))
    .map((w) => (/^[a-z]+\d+$/.test(w) && !/^cd\d+$/.test(w) ? w.replace(/\d+$/, '') : w));
}

/** True when the label names an immune or stromal cell type. */
export function isReferenceType(label: string): boolean {
  return words(label).some((w) => REFERENCE_WORDS.has(w));
}

const typesOf = (l: LevelFact) => l.labels.filter((x) => !NOT_A_TYPE.has(x.trim().toLowerCase()));

/** The sample level: "Sample ID" (the pipeline's), else the first level whose name starts with "sample". */
export function sampleLevel(levels: readonly LevelFact[]): string | undefined {
  return (
    levels.find((l) => l.key === 'Sample ID')?.key ??
    levels.find((l) => /^sample/i.test(l.key) && !l.key.startsWith('subset:'))?.key
  );
}

/**
 * The cell-type level: the first automatic annotation level (AUTO_LEVELS) with two or more cell
 * types, else the clustering ("cluster"), else the first level with 2–500 groups that is not the
 * sample level.
 */
export function cellTypeLevel(
  levels: readonly LevelFact[],
): { key: string; kind: 'auto' | 'cluster' | 'other' } | undefined {
  for (const k of AUTO_LEVELS) {
    const l = levels.find((x) => x.key === k);
    if (l && typesOf(l).length >= 2) return { key: k, kind: 'auto' };
  }
  if (levels.some((l) => l.key === 'cluster')) return { key: 'cluster', kind: 'cluster' };
  const sample = sampleLevel(levels);
  const other = levels.find((l) => l.key !== sample && l.labels.length >= 2 && l.labels.length <= 500);
  return other ? { key: other.key, kind: 'other' } : undefined;
}

/**
 * CNV reference of a level: its immune and stromal types (isReferenceType). When they leave fewer
 * than `minObserved` cells to call (e.g. blood, where every type is immune), the largest of them is
 * observed instead, so the run has cells to call; null when no type matches or only one type exists.
 */
export function cnvReference(
  level: LevelFact,
  minObserved: number,
): { reference: string[]; observedInstead?: string } | null {
  const types = typesOf(level);
  if (types.length < 2) return null;
  const cells = new Map(level.labels.map((l, i) => [l, level.counts[i] ?? 0]));
  const reference = types.filter(isReferenceType);
  if (!reference.length) return null;
  const observedCells = types.filter((t) => !reference.includes(t)).reduce((a, t) => a + cells.get(t)!, 0);
  if (observedCells >= minObserved) return { reference };
  const largest = [...reference].sort((a, b) => cells.get(b)! - cells.get(a)! || a.localeCompare(b))[0]!;
  const rest = reference.filter((t) => t !== largest);
  return rest.length ? { reference: rest, observedInstead: largest } : null;
}

/** The largest type of a level against all its other types (the DE default comparison). */
export function oneVsRest(level: LevelFact): { group1: unknown; group2: unknown; label: string } | null {
  const types = typesOf(level);
  if (types.length < 2) return null;
  const cells = new Map(level.labels.map((l, i) => [l, level.counts[i] ?? 0]));
  const largest = [...types].sort((a, b) => cells.get(b)! - cells.get(a)! || a.localeCompare(b))[0]!;
  return {
    group1: [{ key: level.key, values: [largest] }],
    group2: [{ key: level.key, values: types.filter((t) => t !== largest) }],
    label: largest,
  };
}

/** Param names of a task's (object) schema, with whether each is required (no schema default). */
function paramFields(def: TaskDefinition): Map<string, boolean> {
  const shape = (
    def.params as unknown as { shape?: Record<string, { safeParse(v: unknown): { success: boolean } }> }
  ).shape;
  return new Map(Object.entries(shape ?? {}).map(([k, s]) => [k, !s.safeParse(undefined).success]));
}

/** The schema's own default of a param (undefined when it has none). */
function fieldDefault(def: TaskDefinition, field: string): unknown {
  const shape = (
    def.params as unknown as {
      shape?: Record<string, { safeParse(v: unknown): { success: boolean; data?: unknown } }>;
    }
  ).shape;
  const r = shape?.[field]?.safeParse(undefined);
  return r?.success ? r.data : undefined;
}

/**
 * The defaults of `def` for this dataset, filled into `given` where a field is absent (a given
 * value always wins). `uploads`: names of the files sent with the run (a gene set file replaces
 * the built-in set).
 */
export function resolveDefaults(
  def: TaskDefinition,
  facts: DatasetFacts,
  given: Record<string, unknown>,
  uploads: readonly string[] = [],
): ResolvedDefaults {
  const fields = paramFields(def);
  const params: Record<string, unknown> = { ...given };
  const notes: DefaultNote[] = [];
  const missing: DefaultNote[] = [];
  const absent = (f: string) => fields.has(f) && given[f] === undefined;
  const set = (field: string, value: unknown, key: string, vars: DefaultNote['vars'] = {}) => {
    params[field] = value;
    notes.push({ field, key, vars });
  };
  const levelKeys = new Set(facts.levels.map((l) => l.key));
  const typeLevel = cellTypeLevel(facts.levels);
  // the level the task groups cells by: given, or the cell-type level
  let groupBy = typeof given.groupBy === 'string' ? given.groupBy : undefined;
  if (absent('groupBy') && typeLevel) {
    groupBy = typeLevel.key;
    set('groupBy', groupBy, `tasks.defaults.level.${typeLevel.kind}`, { level: groupBy });
  } else if (absent('groupBy') && fields.get('groupBy')) {
    missing.push({ field: 'groupBy', key: 'tasks.defaults.noLevel', vars: {} });
  }
  const level = facts.levels.find((l) => l.key === groupBy);

  // sample level: when required, or when the schema's default level is not in this dataset
  if (absent('sampleKey')) {
    const sample = sampleLevel(facts.levels);
    const schemaDefault = fieldDefault(def, 'sampleKey');
    if (sample && (typeof schemaDefault !== 'string' || !levelKeys.has(schemaDefault)))
      set('sampleKey', sample, 'tasks.defaults.sampleLevel', { level: sample });
  }

  // CNV reference (a `values` field named reference): the immune and stromal types of the level
  const refHint = def.fields?.reference;
  if (absent('reference') && refHint?.kind === 'values') {
    const minObserved = typeof given.minObserved === 'number' ? given.minObserved : 50;
    const ref = level ? cnvReference(level, minObserved) : null;
    if (!ref) {
      missing.push({ field: 'reference', key: 'tasks.defaults.noReference', vars: { level: groupBy ?? '' } });
    } else if (ref.observedInstead) {
      set('reference', ref.reference, 'tasks.defaults.referenceAllImmune', {
        level: groupBy!,
        types: ref.reference.join(', '),
        observed: ref.observedInstead,
      });
    } else {
      set('reference', ref.reference, 'tasks.defaults.reference', {
        level: groupBy!,
        types: ref.reference.join(', '),
      });
    }
  }

  if (absent('species') && facts.species)
    set('species', facts.species, 'tasks.defaults.species', { species: facts.species });
  if (absent('tissue')) {
    if (facts.tissue) set('tissue', facts.tissue, 'tasks.defaults.tissue', { tissue: facts.tissue });
    else missing.push({ field: 'tissue', key: 'tasks.defaults.noTissue', vars: {} });
  }

  // cell score: a built-in set when no genes are typed and no gene set file is sent
  if (absent('builtinSet') && given.genes === undefined && !uploads.length)
    set('builtinSet', DEFAULT_CELL_SCORE_SET, 'tasks.defaults.builtinSet', {});

  // two groups: the newest DE run when the task builds on one, else the largest type vs the rest
  if (absent('group1') && absent('group2')) {
    if (absent('sourceTaskId') && facts.latestDegGroups) {
      set('sourceTaskId', facts.latestDegGroups, 'tasks.defaults.source', {});
    } else if (!fields.has('sourceTaskId') || given.sourceTaskId === undefined) {
      const cmp = typeLevel && facts.levels.find((l) => l.key === typeLevel.key);
      const groups = cmp ? oneVsRest(cmp) : null;
      if (groups) {
        params.group1 = groups.group1;
        params.group2 = groups.group2;
        notes.push({
          field: 'group1',
          key: 'tasks.defaults.groups',
          vars: { level: cmp!.key, label: groups.label },
        });
      } else if (fields.get('group1')) {
        missing.push({ field: 'group1', key: 'tasks.defaults.noLevel', vars: {} });
      }
    }
  }
  return { params, notes, missing };
}

/** The reasons (`DefaultNote.key`) in both languages; `{name}` placeholders take the note's vars. */
export const DEFAULT_MESSAGES: { 'en-US': Record<string, string>; 'zh-CN': Record<string, string> } = {
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
      'Almost every cell of "{level}" is of an immune or stromal type, so "{observed}" (the largest of them) is analysed too and the others are the normal reference: {types}. Choose the reference yourself for a meaningful call.',
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
      '“{level}”中几乎所有细胞都属于免疫或基质细胞类型，因此同时分析其中最大的“{observed}”，其余作为正常参照：{types}。如需有意义的结果，请自行选择参照。',
    'tasks.defaults.noReference':
      '在“{level}”中没有找到免疫或基质细胞类型（T、NK、B、浆细胞、髓系、单核、巨噬、DC、肥大、中性粒、成纤维、内皮、周细胞等）。请选择正常参照细胞类型。',
    'tasks.defaults.species': '数据集的物种（{species}）。',
    'tasks.defaults.tissue': '分析记录的组织类型（{tissue}）。',
    'tasks.defaults.noTissue': '分析没有记录组织类型。请指定组织类型。',
    'tasks.defaults.builtinSet': '内置的细胞周期 G2/M 基因集（适用于任何组织）。',
    'tasks.defaults.source': '本数据集最新的差异表达结果。',
    'tasks.defaults.groups': '“{level}”中最大的细胞类型（{label}）对比其余所有类型。',
  },
};

/** A note's text in a language (the CLI's; the server translates through its catalog). */
export function defaultNoteText(n: DefaultNote, locale: 'en-US' | 'zh-CN' = 'en-US'): string {
  return (DEFAULT_MESSAGES[locale][n.key] ?? n.key).replace(/\{(\w+)\}/g, (_, k: string) =>
    String(n.vars[k] ?? ''),
  );
}
