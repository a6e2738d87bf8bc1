/** What the contract layer shares besides the registry (re-exported by `@cellcloud/tasks/contract`). */
export { taskFailures, taskKey, type MessageTree, type TaskMessages } from './messages';
export type { DataShape, EstimateMemory } from './memory';
export {
  cellTypeLevel,
  cnvReference,
  DEFAULT_MESSAGES,
  defaultNoteText,
  isReferenceType,
  resolveDefaults,
  type DatasetFacts,
  type DefaultNote,
  type LevelFact,
  type ResolvedDefaults,
} from './defaults';
