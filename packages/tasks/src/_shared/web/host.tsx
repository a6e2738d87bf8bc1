import { createContext, useContext, type ComponentType, type ReactNode } from 'react';
import type { ArtifactManifest } from '@cellcloud/contracts/artifacts';
import type { SubsetView } from '@cellcloud/contracts/explore';
import type { TaskOutputsView, TaskTablePage, TaskView } from '@cellcloud/contracts/tasks/api';
import type { FigureOption } from '../figures/option';

/**
 * What a task's web views need from the app, provided by it (packages never import apps): the
 * authenticated reads of a task's outputs, the chart and embedding components, downloads. The
 * app wraps the task views in <TaskHostProvider value={…}> (apps/web TaskPanel); i18n comes
 * through react-i18next's own context (the `tasks` namespace holds every task's messages).
 */
export interface TaskHostApi {
  /** One output file (obs/…, data/…) of a completed task. */
  file(datasetId: string, taskId: string, file: string): Promise<ArrayBuffer>;
  /** A result table as CSV (the whole table). */
  tableCsv(datasetId: string, taskId: string, name: string): Promise<Blob>;
  /** The first `limit` rows of a result table (JSON page). */
  tablePage(datasetId: string, taskId: string, name: string, limit: number): Promise<TaskTablePage>;
  /** A result table as a CSV file to save (formula-like text quoted, as every export). */
  exportTableCsv(datasetId: string, taskId: string, name: string): Promise<Blob>;
}

/** Per-cell colouring of the embedding viewer. */
export type TaskColouring =
  | { kind: 'categorical'; codes: Uint32Array; colours: string[] }
  | { kind: 'continuous'; values: Float32Array; max: number };

export interface TaskHostComponents {
  /** An ECharts chart with the app's image export (PNG / SVG / TIFF). */
  Chart: ComponentType<{ option: FigureOption; height?: number; fileName: string; testId?: string }>;
  /** The explorer's embedding viewer. */
  Embedding: ComponentType<{
    x: Float32Array;
    y: Float32Array;
    colouring: TaskColouring;
    mouseMode: 'panZoom';
    height?: number;
  }>;
}

/** A new run of a task queued from a result view (re-run with changed parameters). */
export interface TaskRerun {
  pending: boolean;
  create(
    body: { task: string; params: Record<string, unknown> },
    done: { onSuccess: () => void; onError: (e: Error) => void },
  ): void;
}

export interface TaskHost {
  api: TaskHostApi;
  components: TaskHostComponents;
  download(blob: Blob, fileName: string): void;
  /** A hook: queues runs of tasks on `datasetId` (the app's task list refreshes). */
  useCreateTask(datasetId: string): TaskRerun;
  /** Scale of a raster export so it reaches the app's minimum PNG height (docs/product/limits.md). */
  exportScale(heightPx: number): number;
  /** An SVG converted to TIFF by the server (the app's image export). */
  svgToTiff(svg: string, fileName: string): Promise<Blob>;
}

const TaskHostContext = createContext<TaskHost | null>(null);

export function TaskHostProvider({ value, children }: { value: TaskHost; children: ReactNode }) {
  return <TaskHostContext.Provider value={value}>{children}</TaskHostContext.Provider>;
}

export function useTaskHost(): TaskHost {
  const host = useContext(TaskHostContext);
  if (!host) throw new Error('a task view was rendered outside <TaskHostProvider>');
  return host;
}

/** The explorer's artifact reads a view may use (the app's ArtifactClient provides them). */
export interface TaskArtifacts {
  embedding(name: string): Promise<{ x: Float32Array; y: Float32Array }>;
  obs(
    key: string,
  ): Promise<
    | { kind: 'categorical'; key: string; labels: string[]; codes: Uint32Array }
    | { kind: 'numeric'; key: string; values: Float32Array; min: number; max: number }
  >;
}

/** What a task's result view receives (a completed task and its outputs manifest + summary). */
export interface TaskViewProps {
  datasetId: string;
  task: TaskView;
  outputs: TaskOutputsView;
  client: TaskArtifacts;
  manifest: ArtifactManifest;
  subsets: SubsetView[];
}

/** A task folder's `web/index.ts`: its result view (the run panel is generic). */
export interface WebTask {
  view: ComponentType<TaskViewProps>;
}
