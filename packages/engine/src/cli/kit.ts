/**
 * What the CLI entry (packages/tasks/src/_cli, which owns the task registry) uses of the engine's
 * CLI: `analyze` (given the annotate task's in-analysis hook) and the pieces of the `task` verb
 * (the task machinery comes from `tasks/kit.ts`). The engine never imports @cellcloud/tasks: its
 * bin starts that entry (bin/cellcloud.mjs).
 */
export { analyzeCommand, type AnalyzeAnnotation } from './main';
export { USAGE, UsageError } from './args';
export { directorySink } from './fs-sink';
export { defaultResourcesDir, nodeResourceReader } from './node-resources';
export { parseObsFile } from './obs-file';
export { progressBar } from './progress-bar';
export { runCli } from './exit';
export type { StepName } from '../steps/step';
