/** Progress steps the jobs report (engine pipeline steps and the server's own), translated in jobs.json. */
const STEPS = new Set([
  'start',
  'inputs',
  'read',
  'qc',
  'filter',
  'doublets',
  'ambient',
  'normalize',
  'hvg',
  'cellCycle',
  'pca',
  'batch',
  'neighbors',
  'clusters',
  'umap',
  'tsne',
  'umap3D',
  'tsne3D',
  'markers',
  'annotation',
  'deg',
  'convert',
  'properties',
  'render',
  'write',
  'publish',
  'done',
]);

/**
 * The i18n key of a running job's step, or null for a step of its own (a task's
 * internal stage): the list then shows the progress without a step rather than an internal name
 * (issue 31: zh-CN showed "步骤: start").
 */
export function jobStepKey(step: string | null | undefined): string | null {
  return step && STEPS.has(step) ? `jobs:steps.${step}` : null;
}
