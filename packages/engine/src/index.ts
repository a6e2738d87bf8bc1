/**
 * @cellcloud/engine — the standard single-cell pipeline (pure compute; progress via callback).
 * Only apps/server/src/jobs and the CLI import it (eslint enforces this).
 */
export { runAnalysis, type AnalysisResult, type QcReport } from './run-analysis';
export { writeOutputs, markersCsv, MARKER_CSV_HEADER, OUTPUT_FILES, type OutputSink } from './write-outputs';
export { AnalysisRunner } from './runner';
export { CHECKPOINT_FORMAT, type CheckpointOptions, type CheckpointStore } from './checkpoint';
export {
  evaluateCellFiltering,
  type CellFilteringEvaluation,
  type SampleEvaluation,
} from './evaluate-filtering';
export { estimateMemoryBytes, type MemoryEstimateInput } from './memory';
export { EngineError, isEngineError, engineErrorCodes, type EngineErrorCode } from './errors';
export { compareGroups, filterDegTable, findMarkers } from './markers';
export { runDegTask, type DegTaskInput } from './deg-task';
export { runSubcluster, type SubclusterInput } from './subcluster';
export { parseParams, validateSamples, type SampleInput } from './validate';
export { stepNames, type ProgressCallback, type ProgressEvent, type StepName } from './steps/step';
export { engineVersion } from './version';
export { engineIdentity, type EngineIdentity } from './identity';
export {
  runAnalysisStreamed,
  STREAMED_ALL_LAYOUTS_MAX_CELLS,
  type RunStreamedOptions,
} from './stream/run-streamed';
