import type { TaskDefinition, TaskOutputs } from '@cellcloud/contracts/tasks/define';
import { speciesKey, speciesRefusal, taskOutputs } from '@cellcloud/contracts/tasks/define';
import type { CellColumn } from '@cellcloud/formats/matrix';
import { encodeObsColumn, stems } from '@cellcloud/formats/write-artifacts';
import { engineVersion } from '../version';
import { tableToCsv } from './csv';
import { TaskError } from './errors';
import type {
  EngineTask,
  ResourceReader,
  ResultHandle,
  SourceTask,
  TaskProgress,
  TaskSink,
  TaskTable,
} from './types';

/**
 * Running one task into files (issue 11): the CLI (`cellcloud task`) and the worker's child both
 * call `runTask`, so the layout under the task's output root is the same everywhere
 * (contracts `tasks/define.ts` taskOutputs):
 *   tables/<name>.csv, obs/<stem>.f32|u16|u32 (explorer encoding), data/<name>.json|bin,
 *   summary.json, and outputs.json LAST (its presence means the outputs are complete).
 */

/** Where task files go: paths relative to the task's output root (a directory, storage staging…). */
export interface TaskFileWriter {
  write(path: string, bytes: Uint8Array): Promise<void>;
}

const utf8 = (s: string) => new TextEncoder().encode(s);

/** File-name-safe stem of a table/data name (keeps letters, digits, _ . -). */
function safeName(name: string): string {
  return name.replace(/[^A-Za-z0-9_.-]/g, '_').replace(/^\.+/, '_') || '_';
}

/**
 * A TaskSink that encodes every output as it arrives and remembers the manifest entries.
 * Table rows are checked against the column count; a per-cell column must have nCells values.
 */
export class FileTaskSink implements TaskSink {
  readonly tables: TaskOutputs['tables'] = [];
  readonly obs: TaskOutputs['obs'] = [];
  readonly files: TaskOutputs['files'] = [];
  private readonly obsKeys: string[] = [];

  constructor(
    private readonly writer: TaskFileWriter,
    private readonly nCells: number,
    /** The result's cells the task ran on (a sample): columns are widened to all cells, the rest missing. */
    private readonly sample?: CellSample,
  ) {}

  async table(name: string, table: TaskTable): Promise<void> {
    for (const r of table.rows) {
      if (r.length !== table.columns.length) {
        throw new Error(`table ${name}: a row has ${r.length} values for ${table.columns.length} columns`);
      }
    }
    const file = `tables/${safeName(name)}.csv`;
    await this.writer.write(file, utf8(tableToCsv(table)));
    const entry = { name, file, rows: table.rows.length, columns: table.columns };
    const at = this.tables.findIndex((t) => t.name === name);
    if (at >= 0) this.tables[at] = entry;
    else this.tables.push(entry);
  }

  async cellColumn(key: string, column: CellColumn): Promise<void> {
    if (column.values.length !== this.nCells) {
      throw new Error(`per-cell column "${key}" has ${column.values.length} values for ${this.nCells} cells`);
    }
    if (this.sample) column = widenColumn(column, this.sample);
    if (!this.obsKeys.includes(key)) this.obsKeys.push(key);
    const stem = stems(this.obsKeys).get(key)!;
    const { entry, bytes } = encodeObsColumn(key, column, stem);
    await this.writer.write(entry.file, bytes);
    const at = this.obs.findIndex((o) => o.key === key);
    if (at >= 0) this.obs[at] = entry;
    else this.obs.push(entry);
  }

  async data(name: string, value: unknown): Promise<void> {
    const raw = value instanceof Uint8Array;
    const file = `data/${safeName(name)}${raw || /\.[A-Za-z0-9]+$/.test(name) ? '' : '.json'}`;
    const bytes = raw ? value : utf8(JSON.stringify(value));
    await this.writer.write(file, bytes);
    const entry = { name, file, bytes: bytes.byteLength };
    const at = this.files.findIndex((f) => f.name === name);
    if (at >= 0) this.files[at] = entry;
    else this.files.push(entry);
  }
}

/**
 * A task run on a sample of the result's cells (the worker above a cell count, docs/engine-scaling.md
 * "Downstream tasks on large results"): `cells` (ascending) of the result's `nCells`; `describe`
 * is written as data/cell-sample.json so the researcher reads which cells the outputs cover.
 */
export interface CellSample {
  nCells: number;
  cells: Uint32Array;
  describe: Record<string, unknown>;
}

/** A sampled cells' column over all the result's cells: NaN / 'NA' for the cells not sampled. */
function widenColumn(column: CellColumn, sample: CellSample): CellColumn {
  if (column.kind === 'numeric') {
    const values = new Float64Array(sample.nCells).fill(NaN);
    sample.cells.forEach((c, i) => (values[c] = column.values[i]!));
    return { kind: 'numeric', values };
  }
  const values = new Array<string>(sample.nCells).fill('NA');
  sample.cells.forEach((c, i) => (values[c] = column.values[i]!));
  return { kind: 'categorical', values };
}

/** Turns a zod validation failure into a TaskError the server and CLI can show. */
export function paramsError(issues: { path: PropertyKey[]; message: string }[]): TaskError {
  const detail = issues
    .slice(0, 5)
    .map((i) => `${i.path.map(String).join('.') || '(params)'}: ${i.message}`)
    .join('; ');
  return new TaskError('common.invalidParams', `Invalid parameters: ${detail}`, { detail });
}

/** Validates raw params against the definition's strict schema (defaults applied) or throws a TaskError. */
export function validateTaskParams<P>(definition: TaskDefinition, raw: unknown): P {
  const r = definition.params.safeParse(raw ?? {});
  if (!r.success) throw paramsError(r.error.issues);
  return r.data as P;
}

export interface RunTaskOptions {
  definition: TaskDefinition;
  engineTask: EngineTask<never, unknown>;
  result: ResultHandle;
  /** Unvalidated params (validated here with the definition's schema). */
  params: unknown;
  writer: TaskFileWriter;
  resources: ResourceReader;
  uploads?: Record<string, Uint8Array>;
  source?: SourceTask;
  onProgress?: (p: TaskProgress) => void;
  signal?: AbortSignal;
  /** `result` holds these cells of a larger result (per-cell outputs widened, the rest missing). */
  sample?: CellSample;
}

export interface RunTaskResult {
  summary: unknown;
  outputs: TaskOutputs;
  params: unknown;
}

/**
 * Validates params, runs the engine task into a FileTaskSink, checks the summary against the
 * definition's schema, writes summary.json and then outputs.json. Throws TaskError for
 * user-facing failures (bad params, species, groups, resources…), other errors for bugs.
 */
export async function runTask(o: RunTaskOptions): Promise<RunTaskResult> {
  const { definition, result } = o;
  if (o.engineTask.name !== definition.name) {
    throw new Error(`engine task "${o.engineTask.name}" does not match definition "${definition.name}"`);
  }
  checkSpecies(definition, result.species);
  const params = validateTaskParams<never>(definition, o.params);
  const sink = new FileTaskSink(o.writer, result.nCells, o.sample);
  if (o.sample) await sink.data('cell-sample', o.sample.describe);
  const onProgress = o.onProgress ?? (() => {});
  if (o.signal?.aborted) throw new TaskError('common.cancelled', 'The analysis was cancelled.');
  onProgress({ fraction: 0, step: 'start' });
  const summary = await o.engineTask.run({
    result,
    params,
    onProgress: (p) => onProgress({ fraction: Math.max(0, Math.min(1, p.fraction)), step: p.step }),
    signal: o.signal,
    sink,
    resources: o.resources,
    uploads: o.uploads,
    source: o.source,
  });
  if (o.signal?.aborted) throw new TaskError('common.cancelled', 'The analysis was cancelled.');
  const checked = definition.summary.safeParse(summary);
  if (!checked.success) {
    throw new Error(
      `task ${definition.name} returned a summary that does not match its schema: ${checked.error.message}`,
    );
  }
  await o.writer.write('summary.json', utf8(JSON.stringify(checked.data)));
  const outputs = taskOutputs.parse({
    task: definition.name,
    engineVersion: engineVersion(),
    nCells: o.sample?.nCells ?? result.nCells,
    tables: sink.tables,
    obs: sink.obs,
    files: sink.files,
  });
  await o.writer.write('outputs.json', utf8(JSON.stringify(outputs)));
  onProgress({ fraction: 1, step: 'done' });
  return { summary: checked.data, outputs, params };
}

/** The species rule of a definition (docs/product/validation.md#species; contracts speciesRefusal); 'unknown' species passes. */
export function checkSpecies(definition: TaskDefinition, species: string): void {
  const key = speciesRefusal(definition.species, species);
  if (!key) return;
  const english =
    key === 'common.speciesHumanOnly'
      ? `This analysis supports human data only (the dataset is ${species}).`
      : `This analysis supports human and mouse data only (the dataset is ${species}).`;
  throw new TaskError(key, english, { species });
}

export { speciesKey };
