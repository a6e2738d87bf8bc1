/**
 * The i18n key of a running job's step when jobs.json translates it (the pipeline's and the
 * server's own steps: start, inputs, qc … markers, write, publish), else null — a step of a task's
 * own shows no step rather than an internal name (issue 31: zh-CN showed "步骤: start").
 */
export function jobStepKey(step: string | null | undefined, exists: (key: string) => boolean): string | null {
  const key = step ? `jobs:steps.${step}` : null;
  return key && exists(key) ? key : null;
}
