import { z } from 'zod';
import type { PermissionKey } from '../privileges';

/**
 * The task shape (issue 11): one definition per downstream analysis, used by the CLI, the worker,
 * the API and the web app. A task is one folder, `packages/tasks/src/<task>/` (its `contract.ts`
 * calls this file's `defineTask`; engine compute, memory estimate, web views, figure builders and
 * messages sit beside it); the registries are generated from the folders (packages/tasks/README.md
 * "How to add an analysis task"). Only the generic task API stays here.
 */

/** Explore tabs (docs/product/screens.md) that a task can feed (keys of the web's EXPLORE_TABS). */
export const exploreTabKeys = [
  'cellQuality',
  'geneExpression',
  'cellularComposition',
  'differentialExpression',
  'cellInteractions',
  'trajectory',
  'cnv',
  'ith',
  'vdj',
  'tfRegulation',
  'cellAnnotations',
] as const;
export type ExploreTabKey = (typeof exploreTabKeys)[number];

/**
 * Species rule (docs/product/validation.md). `any`: every species; `human`: human only (cell communication);
 * `human-mouse`: human and mouse (CNV, annotation, SCENIC); `orthologues`: human directly, other
 * species through an orthologue table (enrichment) — the engine refuses species it cannot map.
 */
export type SpeciesRule = 'any' | 'human' | 'human-mouse' | 'orthologues';

export interface TaskDefinition<P extends z.ZodType = z.ZodType, S extends z.ZodType = z.ZodType> {
  /** Stable name, kebab-case: the CLI verb (`npx cellcloud task <name>`), the URL segment, the engine registry key. */
  name: string;
  /** i18n key (web `tasks` namespace) of the task's display name. */
  titleKey: string;
  /** Display name in each language (methods report, notifications, figure export). */
  displayName?: Readonly<Record<'en-US' | 'zh-CN', string>>;
  /**
   * What the methods report says about a run: a paragraph per language in the project's words
   * (docs/methods/<task>.md says it at length) and the references of the methods used.
   */
  method?: { 'en-US'?: string; 'zh-CN'?: string; citations: readonly string[] };
  /** Position in task lists (menus, tabs): ascending, the product's "task types" order. */
  order?: number;
  /** Strict parameter schema with defaults and bounds written once. */
  params: P;
  /** Schema of the task's `summary.json` (small result manifest the web reads first). */
  summary: S;
  /** Operation permission (docs/product/permissions.md) checked by the API (403 "request a subscription"). */
  permission: PermissionKey;
  species: SpeciesRule;
  /** The explore tab that shows the task's results. */
  tab: ExploreTabKey;
  /** Job expiry; the worker kills the child after it. */
  timeoutMinutes: number;
  /**
   * Tasks whose outputs this one reads (e.g. enrich reads a deg-groups task): the params then carry
   * `sourceTaskId`, and the server hands the source task's output files to the engine.
   */
  dependsOn?: readonly string[];
  /**
   * Failure / validation messages of this task in both languages, keyed WITHOUT the `task.` prefix
   * (the engine throws `TaskError('<key>', english, params)`, the server stores `task.<key>` and
   * translates it per reader; `{name}` placeholders take the error's params).
   */
  messages: { 'en-US': Record<string, string>; 'zh-CN': Record<string, string> };
  /**
   * Files the user provides for a run (gene set csv, GMT, contigs…). `name` is the camelCase key
   * the engine receives in `uploads` (CLI flag `--<kebab-name> <file>`, API field `uploads.<name>`).
   */
  uploads?: readonly TaskUpload[];
  /**
   * Form hints for the web run panel, by param name: `level` = pick an annotation level,
   * `group` = a group spec (level + values), `genes` = gene symbols, `options` = fixed choices,
   * `hidden` = not shown. Other params are rendered from the schema (numbers, enums, booleans,
   * strings); `advanced: true` puts a param under the form's "Advanced" section. Labels: web
   * `tasks` namespace, `<task name>.params.<param>`; help: `<task name>.help.<param>`.
   */
  fields?: Readonly<Record<string, TaskFieldHint>>;
  /**
   * A layout of the cells a completed run adds to the explorer's embedding choice (the layout
   * task's t-SNE or 3-D UMAP, computed on demand): its name, dimensions and data file (relative
   * to the run's outputs, `data/…`, Float32 row-major nCells × dims). The server lists it in the
   * result's manifest when the analysis has no embedding of that name; the newest run wins.
   */
  explorerEmbedding?: (params: z.infer<P>) => { name: string; dims: 2 | 3; file: string } | undefined;
}

export interface TaskUpload {
  name: string;
  /** i18n key (web `tasks` namespace) of the field label. */
  labelKey: string;
  /** `accept` attribute of the file input, e.g. '.csv,.txt'. */
  accept: string;
  maxBytes: number;
  /** Needed for every run (otherwise the params say when it is used). */
  required?: boolean;
}

/**
 * How the form shows one param: its widget (`kind`; none = rendered from the schema) and whether
 * it is a tuning knob under the form's collapsed "Advanced" section (`advanced`: thresholds,
 * iteration counts, seeds, method internals) rather than a choice that matters first.
 */
export type TaskFieldHint = TaskFieldKind & { advanced?: true };

type TaskFieldKind =
  /** Rendered from the params schema (number, enum, boolean, string, list). */
  | { kind?: undefined }
  | { kind: 'level' }
  | { kind: 'group' }
  | { kind: 'genes' }
  | { kind: 'hidden' }
  /** A finished run of a task in `dependsOn` (value: its id); its groups and tables are used. */
  | { kind: 'source' }
  /** A fixed list of choices for a string param (labels: web `tasks` key `<task>.options.<param>.<value>`). */
  | { kind: 'options'; values: readonly string[] }
  /** Groups of the annotation level chosen in param `level` (multi-select; e.g. CNV reference cell types). */
  | { kind: 'values'; level: string };

/** Identity helper that keeps the literal types of a definition. */
export function defineTask<P extends z.ZodType, S extends z.ZodType>(
  d: TaskDefinition<P, S>,
): TaskDefinition<P, S> {
  return d;
}

/**
 * Files a task writes under `results/<resultId>/tasks/<taskId>/` (CLI: under `--out`):
 *   summary.json          the task's summary (its `summary` schema)
 *   outputs.json          this manifest (taskOutputs), written last by the runner
 *   tables/<name>.csv     result tables with documented column names (UTF-8, RFC 4180, header row)
 *   obs/<key>.f32|u16|u32 per-cell columns in the explorer artifact format (docs/artifacts.md),
 *                         merged into the explorer's annotation levels / continuous values
 *   data/<name>.json|bin  figure data too large for the summary
 */
export const taskOutputs = z.object({
  task: z.string(),
  engineVersion: z.string(),
  nCells: z.number().int(),
  tables: z.array(
    z.object({ name: z.string(), file: z.string(), rows: z.number().int(), columns: z.array(z.string()) }),
  ),
  obs: z.array(
    z.discriminatedUnion('kind', [
      z.object({
        kind: z.literal('categorical'),
        key: z.string(),
        file: z.string(),
        dtype: z.enum(['u16', 'u32']),
        labels: z.array(z.string()),
      }),
      z.object({
        kind: z.literal('numeric'),
        key: z.string(),
        file: z.string(),
        min: z.number(),
        max: z.number(),
      }),
    ]),
  ),
  files: z.array(z.object({ name: z.string(), file: z.string(), bytes: z.number().int() })),
});
export type TaskOutputs = z.infer<typeof taskOutputs>;

/** Lifecycle of a task row (docs/product/states.md: processing / failed "please refresh later"). */
export const taskStatus = z.enum(['submitted', 'running', 'completed', 'failed']);
export type TaskStatus = z.infer<typeof taskStatus>;

const NO_CONTROL = /^[^\u0000]*$/;

/** An annotation level key (obs column of the result, a subset's key, or a task's per-cell column). */
export const groupByKey = z.string().min(1).max(200).regex(NO_CONTROL);

/**
 * A cell group defined by conditions on annotation levels (all must hold):
 * `[{ key: 'cluster', values: ['1','3'] }, { key: 'Sample ID', values: ['ctrl'] }]`.
 * CLI form: `'cluster=1,3;Sample ID=ctrl'` (parseGroupSpec).
 */
export const groupCondition = z
  .object({ key: groupByKey, values: z.array(z.string().max(500)).min(1) })
  .strict();
export const groupSpec = z.array(groupCondition).min(1);
export type GroupSpec = z.infer<typeof groupSpec>;

export function parseGroupSpec(text: string): GroupSpec {
  return text
    .split(';')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const eq = part.indexOf('=');
      if (eq <= 0) throw new Error(`"${part}" is not <level>=<value>[,<value>]`);
      return {
        key: part.slice(0, eq).trim(),
        values: part
          .slice(eq + 1)
          .split(',')
          .map((v) => v.trim())
          .filter(Boolean),
      };
    });
}

/** 'human' | 'mouse' | other lower-case name, from the forms manifests use ('Homo sapiens', 'human', 'hsa'…). */
export function speciesKey(species: string): string {
  const s = species.trim().toLowerCase();
  if (s === 'human' || s === 'homo sapiens' || s === 'hsa' || s === 'hs') return 'human';
  if (s === 'mouse' || s === 'mus musculus' || s === 'mmu' || s === 'mm') return 'mouse';
  return s || 'unknown';
}

/**
 * Species rule (docs/product/validation.md): the COMMON_TASK_MESSAGES key refusing `species`, or null when allowed.
 * 'unknown' species passes (nothing to check against); `orthologues` is checked by the engine.
 */
export function speciesRefusal(
  rule: SpeciesRule,
  species: string,
): 'common.speciesHumanOnly' | 'common.speciesHumanMouse' | null {
  const s = speciesKey(species);
  if (s === 'unknown' || rule === 'any' || rule === 'orthologues') return null;
  if (rule === 'human' && s !== 'human') return 'common.speciesHumanOnly';
  if (rule === 'human-mouse' && s !== 'human' && s !== 'mouse') return 'common.speciesHumanMouse';
  return null;
}
