/**
 * What an analysis task's engine layer (packages/tasks/src/<task>/engine) uses of the engine: the
 * task machinery (EngineTask, TaskError, ResultHandle, sinks, groups) and the shared methods. One
 * entry point, so the engine's package surface names one path for the task folders; the engine
 * itself never imports @cellcloud/tasks (the CLI's `task` verb lives in packages/tasks/src/_cli).
 */
export { TaskError, isTaskError } from './errors';
export type {
  AnalysisRecord,
  EngineTask,
  ResourceReader,
  ResultHandle,
  SourceTask,
  TableValue,
  TaskProgress,
  TaskRunContext,
  TaskSink,
  TaskTable,
} from './types';
export { gunzipBytes } from './bytes';
export { categoricalLevel, describeGroup, groupsOf, selectCells } from './groups';
export { csvToTable, tableToCsv } from './csv';
export { MemorySink } from './memory-sink';
export { analysisRecordFromQc, resultHandleFromDataset } from './result-handle';
export { runTask, validateTaskParams } from './run-task';
export type { CellSample } from './run-task';
export { Random } from '../methods/random';
export { digamma, trigamma } from '../methods/special';
export { benjaminiHochberg, erfc, twoSidedNormalP } from '../stats/normal';
export { averageRanks } from '../stats/ranks';
export { studentTwoSidedP } from '../stats/two-sample';
export { CELL_CYCLE_GENES } from '../cell-cycle-genes';
