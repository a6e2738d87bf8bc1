import { runCli } from '@cellcloud/engine/cli/kit';
import { TASK_USAGE, taskCommand } from './task';

/**
 * `cellcloud task …` (the engine's bin starts this entry for the `task` verb, the engine's own
 * CLI for the others): runs one analysis task of the task folders on a result written by
 * `cellcloud analyze`.
 */
runCli(taskCommand(process.argv.slice(3)), TASK_USAGE);
