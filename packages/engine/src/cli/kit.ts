/**
 * What the `cellcloud task` verb (packages/tasks/src/_cli, which owns the task registry) uses of
 * the engine's CLI (the task machinery comes from `tasks/kit.ts`). The engine never imports @cellcloud/tasks: its bin starts
 * that verb's entry (bin/cellcloud.mjs).
 */
export { UsageError } from './args';
export { directorySink } from './fs-sink';
export { defaultResourcesDir, nodeResourceReader } from './node-resources';
export { parseObsFile } from './obs-file';
export { progressBar } from './progress-bar';
export { runCli } from './exit';
export type { StepName } from '../steps/step';
