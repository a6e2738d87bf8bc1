import { analyzeCommand, runCli, USAGE } from '@cellcloud/engine/cli/kit';
import { annotateInAnalysis } from '../annotate/engine/in-analysis';
import { TASK_USAGE, taskCommand } from './task';

/**
 * `cellcloud …` (the engine's bin starts this entry): `task` runs one analysis task of the task
 * folders on a result written by `cellcloud analyze`; `analyze` is the engine's pipeline, given the
 * wizard's automatic annotation (the annotate task, which the engine cannot import).
 */
const argv = process.argv.slice(2);
if (argv[0] === 'task') runCli(taskCommand(argv.slice(1)), TASK_USAGE);
else runCli(analyzeCommand(argv, annotateInAnalysis), USAGE);
