import type { TaskDefinition } from '@cellcloud/contracts/tasks/define';
import { i18nPrefix, type TasksT } from './paramText';

/** One field's problems in the run form, in the reader's language, naming the field by its label. */
export interface FieldError {
  /** The param the problem is on (a form field name); `null` for a problem of the whole form. */
  name: string | null;
  errors: string[];
}

/** The parts of a zod (v4) issue the form reads. */
interface Issue {
  code: string;
  path: PropertyKey[];
  expected?: string;
  origin?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  inclusive?: boolean;
  divisor?: number;
  values?: unknown[];
  message?: string;
}

/**
 * The values a run form sends: empty inputs (cleared numbers, blank text, empty lists) are left
 * out, so the schema's own default applies, as on the server.
 */
export function formParams(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(values).filter(
      ([, v]) => v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && v.length === 0),
    ),
  );
}

/**
 * The form's values checked against the task's own params schema before anything is queued
 * (issue 31: a run was queued, then refused with "groupBy: Invalid input: expected string,
 * received undefined"). Each problem is said in the reader's language, with the field's label
 * (never the param key) and what to do; no problem → an empty list.
 */
export function paramErrors(
  definition: Pick<TaskDefinition, 'name' | 'params' | 'fields'>,
  values: Record<string, unknown>,
  t: TasksT,
): FieldError[] {
  const params = formParams(values);
  const parsed = definition.params.safeParse(params);
  if (parsed.success) return [];
  const prefix = i18nPrefix(definition);
  const byField = new Map<string | null, string[]>();
  for (const issue of parsed.error.issues as Issue[]) {
    const key = typeof issue.path[0] === 'string' ? issue.path[0] : null;
    // a problem on a hidden field (or of the whole form) cannot be fixed on a field: it goes to
    // the form's summary
    const name = key && definition.fields?.[key]?.kind !== 'hidden' ? key : null;
    const label = key ? t(`${prefix}.params.${key}`, { defaultValue: t('tasks:form.errors.thisField') }) : '';
    const text = issueText(issue, key ? params[key] : undefined, label, t);
    const list = byField.get(name) ?? [];
    if (!list.includes(text)) list.push(text);
    byField.set(name, list);
  }
  return [...byField].map(([name, errors]) => ({ name, errors }));
}

function issueText(issue: Issue, value: unknown, label: string, t: TasksT): string {
  const list = issue.origin === 'array' || Array.isArray(value);
  const at = issue.path.length > 1;
  if (!label) return t('tasks:form.errors.form');
  if (issue.code === 'invalid_type' && (value === undefined || at) && !list)
    return t('tasks:form.errors.required', { label });
  if (issue.code === 'invalid_type' && (issue.expected === 'int' || issue.expected === 'integer'))
    return t('tasks:form.errors.integer', { label });
  if (issue.code === 'too_small' && list) {
    const min = Number(issue.minimum);
    return min <= 1
      ? t('tasks:form.errors.required', { label })
      : t('tasks:form.errors.fewItems', { label, min });
  }
  if (issue.code === 'too_big' && list)
    return t('tasks:form.errors.manyItems', { label, max: Number(issue.maximum) });
  if (issue.code === 'too_small' && issue.origin === 'string')
    return t('tasks:form.errors.required', { label });
  if (issue.code === 'too_big' && issue.origin === 'string')
    return t('tasks:form.errors.longText', { label, max: Number(issue.maximum) });
  if (issue.code === 'too_small')
    return t(issue.inclusive === false ? 'tasks:form.errors.above' : 'tasks:form.errors.min', {
      label,
      min: Number(issue.minimum),
    });
  if (issue.code === 'too_big')
    return t(issue.inclusive === false ? 'tasks:form.errors.below' : 'tasks:form.errors.max', {
      label,
      max: Number(issue.maximum),
    });
  if (issue.code === 'custom' && issue.message === 'odd') return t('tasks:form.errors.odd', { label });
  if (issue.code === 'invalid_value' || issue.code === 'invalid_union')
    return t('tasks:form.errors.choice', { label });
  if (issue.code === 'not_multiple_of' && issue.divisor === 1)
    return t('tasks:form.errors.integer', { label });
  if (issue.code === 'invalid_type' && value === undefined) return t('tasks:form.errors.required', { label });
  return t('tasks:form.errors.invalid', { label });
}
