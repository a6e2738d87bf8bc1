import type { TaskDefinition } from '@cellcloud/contracts/tasks/define';

/** A translate function of the web `tasks` namespace (react-i18next's `t`, or i18next's in tests). */
export type TasksT = (key: string, options?: Record<string, unknown>) => string;

/**
 * Key prefix of a task in the web `tasks` namespace: the camelCase task name (`cell-score` →
 * `cellScore`); its keys are `<prefix>.title`, `.params.<param>`, `.options.<param>.<value>`,
 * `.uploads.<name>` (the definition's titleKey / labelKey follow the same scheme).
 */
export function i18nPrefix(definition: Pick<TaskDefinition, 'name'>): string {
  return definition.name.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** One parameter of a run as the task history shows it: translated label and readable value. */
export interface ParamText {
  name: string;
  label: string;
  value: string;
}

export interface ParamTextContext {
  t: TasksT;
  /** Display name of an annotation level key (a saved subset's name for `subset:<id>`). */
  levelName?: (key: string) => string;
  /** Display name of a finished run another run builds on (`source` fields), when still listed. */
  sourceName?: (taskId: string) => string | undefined;
}

interface GroupCondition {
  key: string;
  values: unknown[];
}

const isGroupSpec = (v: unknown): v is GroupCondition[] =>
  Array.isArray(v) &&
  v.length > 0 &&
  v.every(
    (c) =>
      typeof c === 'object' &&
      c !== null &&
      typeof (c as GroupCondition).key === 'string' &&
      Array.isArray((c as GroupCondition).values),
  );

/** Param names in the order of the task's schema, then any other stored ones. */
function orderedNames(definition: TaskDefinition | undefined, params: Record<string, unknown>): string[] {
  const shape = (definition?.params as { shape?: Record<string, unknown> } | undefined)?.shape ?? {};
  const names = Object.keys(shape).filter((k) => k in params);
  return [...names, ...Object.keys(params).filter((k) => !names.includes(k))];
}

/**
 * The parameters of a task run as translated labels and readable values (issue 31: the history
 * showed `group1=[object Object]`): group specs as "cluster: 1, 2", levels by name, enum and
 * option values by their labels, lists joined, booleans as yes / no, a source run by its name;
 * uploads first, by their field label and file name. Hidden fields are left out.
 */
export function paramTexts(
  definition: TaskDefinition | undefined,
  run: { params: Record<string, unknown>; uploads?: Record<string, string> },
  ctx: ParamTextContext,
): ParamText[] {
  const { t } = ctx;
  const prefix = definition ? i18nPrefix(definition) : '';
  const levelName = ctx.levelName ?? ((k: string) => k);
  const label = (name: string) => t(`${prefix}.params.${name}`, { defaultValue: name });
  const scalar = (name: string, v: unknown): string => {
    if (typeof v === 'boolean') return t(v ? 'tasks:history.yes' : 'tasks:history.no');
    if (typeof v === 'number') return String(v);
    if (typeof v === 'string') return prefix ? t(`${prefix}.options.${name}.${v}`, { defaultValue: v }) : v;
    return JSON.stringify(v);
  };
  const value = (name: string, v: unknown): string => {
    const hint = definition?.fields?.[name];
    if (hint?.kind === 'source' && typeof v === 'string')
      return ctx.sourceName?.(v) ?? t('tasks:history.sourceGone');
    if (hint?.kind === 'level' && typeof v === 'string') return levelName(v);
    if (isGroupSpec(v))
      return v
        .map((c) => `${levelName(c.key)}: ${c.values.map((x) => scalar(name, x)).join(', ')}`)
        .join(' & ');
    if (Array.isArray(v)) return v.map((x) => scalar(name, x)).join(', ');
    return scalar(name, v);
  };
  const uploads = Object.entries(run.uploads ?? {}).map(([name, file]) => ({
    name,
    label: t(`${prefix}.uploads.${name}`, { defaultValue: name }),
    value: file,
  }));
  const params = orderedNames(definition, run.params)
    .filter((name) => definition?.fields?.[name]?.kind !== 'hidden')
    .filter((name) => run.params[name] !== undefined && run.params[name] !== null)
    .map((name) => ({ name, label: label(name), value: value(name, run.params[name]) }));
  return [...uploads, ...params];
}
