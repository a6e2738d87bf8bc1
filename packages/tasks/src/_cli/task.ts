import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { parseGroupSpec } from '@cellcloud/contracts/tasks/define';
import {
  defaultResourcesDir,
  directorySink,
  nodeResourceReader,
  parseObsFile,
  progressBar,
  UsageError,
  type StepName,
} from '@cellcloud/engine/cli/kit';
import {
  analysisRecordFromQc,
  isTaskError,
  resultHandleFromDataset,
  runTask,
} from '@cellcloud/engine/tasks/kit';
import type { AnalysisRecord } from '@cellcloud/engine/tasks/kit';
import { detectSpecies, readH5adBytes } from '@cellcloud/formats';
import type { CellColumn } from '@cellcloud/formats/matrix';
import { defaultNoteText, resolveDefaults, type LevelFact } from '../_shared/contract/defaults';
import { findTask, TASKS } from '../generated/registry.contract';
import { ENGINE_TASKS } from '../generated/registry.engine';
import { flagValue, parseTaskArgs, TASK_USAGE } from './task-args';

export { TASK_USAGE };

async function readText(file: string, what: string): Promise<string> {
  return readFile(file, 'utf8').catch((e: NodeJS.ErrnoException) => {
    throw new UsageError(
      `Cannot read the ${what} ${file}: ${e.code === 'ENOENT' ? 'no such file' : e.message}.`,
    );
  });
}

/** Where analysis.h5ad is, and the species from the artifact manifest next to it (when present). */
async function locateResult(
  input: string,
): Promise<{ h5ad: string; species?: string; analysis?: AnalysisRecord }> {
  const s = await stat(input).catch(() => undefined);
  if (!s) throw new UsageError(`No such file or folder: ${input}`);
  const dir = s.isDirectory() ? input : path.dirname(input);
  const h5ad = s.isDirectory() ? path.join(input, 'analysis.h5ad') : input;
  if (!(await stat(h5ad).catch(() => undefined)))
    throw new UsageError(`${input} has no analysis.h5ad (run \`cellcloud analyze\` first).`);
  const manifest = await readFile(path.join(dir, 'artifacts', 'manifest.json'), 'utf8').catch(
    () => undefined,
  );
  const species = manifest ? (JSON.parse(manifest) as { species?: string }).species : undefined;
  // the representation the analysis' graph used (the layout task recomputes a layout on it)
  const analysis = analysisRecordFromQc(
    await readFile(path.join(dir, 'artifacts', 'qc.json'), 'utf8').catch(() => undefined),
  );
  return { h5ad, species, ...(analysis ? { analysis } : {}) };
}

/**
 * The dataset defaults of the API (issue 31, _shared/contract/defaults.ts) filled into the absent
 * params from the result's categorical obs, so `cellcloud task <task> <result>` with no flags runs
 * what the web form and `params: {}` run; a field no rule can fill is a usage error saying why.
 */
function withDatasetDefaults(
  definition: NonNullable<ReturnType<typeof findTask>>,
  species: string,
  columns: Record<string, CellColumn>,
  params: Record<string, unknown>,
  uploads: Record<string, Uint8Array>,
  say: (m: string) => void,
): Record<string, unknown> {
  const levels: LevelFact[] = [];
  for (const [key, col] of Object.entries(columns)) {
    if (col.kind !== 'categorical') continue;
    const counts = new Map<string, number>();
    for (const v of col.values) counts.set(String(v), (counts.get(String(v)) ?? 0) + 1);
    levels.push({ key, labels: [...counts.keys()], counts: [...counts.values()] });
  }
  const r = resolveDefaults(definition, { species, levels }, params, Object.keys(uploads));
  if (r.missing.length) throw new UsageError(r.missing.map((m) => defaultNoteText(m)).join(' '));
  for (const n of r.notes) say(`default ${n.field}: ${defaultNoteText(n)}`);
  return r.params;
}

/** `cellcloud task …`: returns the process exit code. Throws UsageError for bad invocations. */
export async function taskCommand(
  argv: string[],
  log: (msg: string) => void = (m) => process.stderr.write(`${m}\n`),
): Promise<number> {
  const args = parseTaskArgs(argv);
  const definition = findTask(args.task);
  const engineTask = ENGINE_TASKS[args.task];
  if (!definition || !engineTask) {
    const names = TASKS.filter((t) => ENGINE_TASKS[t.name]).map((t) => t.name);
    throw new UsageError(`Unknown task "${args.task}". Tasks: ${names.join(', ') || '(none yet)'}.`);
  }
  const say = (m: string) => !args.quiet && log(m);

  // Parameters: --params file, then --groupby, then --<param> flags; file fields become uploads.
  let params: Record<string, unknown> = {};
  if (args.params) {
    const text = await readText(args.params, 'parameter file');
    try {
      params = JSON.parse(text) as Record<string, unknown>;
    } catch (e) {
      throw new UsageError(`Parameter file ${args.params} is not valid JSON: ${(e as Error).message}`);
    }
  }
  if (args.groupBy !== undefined) params.groupBy = args.groupBy;
  const uploads: Record<string, Uint8Array> = {};
  const uploadNames = new Set((definition.uploads ?? []).map((u) => u.name));
  const fromFlags = new Set<string>();
  for (const [name, text] of Object.entries(args.flags)) {
    if (uploadNames.has(name)) {
      uploads[name] = new Uint8Array(
        await readFile(text).catch((e: NodeJS.ErrnoException) => {
          throw new UsageError(`Cannot read ${text}: ${e.code === 'ENOENT' ? 'no such file' : e.message}.`);
        }),
      );
    } else {
      params[name] = flagValue(text);
      fromFlags.add(name);
    }
  }
  // A flag written as 'level=v1,v2' where the schema wants a group spec.
  const first = definition.params.safeParse(params);
  if (!first.success) {
    for (const issue of first.error.issues) {
      const key = String(issue.path[0] ?? '');
      const v = params[key];
      if (fromFlags.has(key) && typeof v === 'string' && v.includes('=')) {
        try {
          params[key] = parseGroupSpec(v);
        } catch {
          /* left for the schema's message */
        }
      }
    }
  }

  const { h5ad, species: manifestSpecies, analysis } = await locateResult(args.input);
  const t0 = performance.now();
  // our own result: its counts layer holds the input's values, non-integer ones included (issue 32)
  const ds = await readH5adBytes(new Uint8Array(await readFile(h5ad)), path.basename(h5ad), {
    allowNonInteger: true,
  });
  const guess = detectSpecies(ds.genes);
  const species = manifestSpecies ?? (guess.species !== 'unknown' ? guess.species : 'unknown');
  say(
    `read ${h5ad}: ${ds.counts.nCells} cells × ${ds.counts.nGenes} genes (${species}) in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );

  const extraObs: Record<string, CellColumn> = {};
  for (const file of args.obs) {
    const parsed = parseObsFile(await readText(file, '--obs file'), ds.cells.barcodes);
    Object.assign(extraObs, parsed.columns);
    say(
      `--obs ${file}: ${Object.keys(parsed.columns).join(', ') || 'no columns'}; ${parsed.matched} of ${ds.counts.nCells} cells matched` +
        (parsed.unmatched.length
          ? `, ${parsed.unmatched.length} barcode(s) match no cell (e.g. ${parsed.unmatched.slice(0, 3).join(', ')})`
          : ''),
    );
    if (parsed.matched === 0) throw new UsageError(`No barcode of ${file} matches a cell of the result.`);
  }
  params = withDatasetDefaults(
    definition,
    species,
    { ...ds.cells.columns, ...extraObs },
    params,
    uploads,
    say,
  );
  const result = resultHandleFromDataset(ds, { species, extraObs, ...(analysis ? { analysis } : {}) });
  const bar = args.quiet ? undefined : progressBar();
  const controller = new AbortController();
  const onSig = () => controller.abort();
  process.once('SIGINT', onSig);
  try {
    const r = await runTask({
      definition,
      engineTask,
      result,
      params,
      writer: directorySink(args.out),
      resources: nodeResourceReader(defaultResourcesDir()),
      uploads,
      signal: controller.signal,
      onProgress: (p) => bar?.({ fraction: p.fraction, step: p.step as StepName, message: p.step }),
    });
    const parts = [
      ...r.outputs.tables.map((t) => `${t.file} (${t.rows} rows)`),
      ...r.outputs.obs.map((o) => o.file),
      ...r.outputs.files.map((f) => f.file),
    ];
    say(`done: ${path.join(args.out, 'outputs.json')}; ${parts.join(', ')}`);
    return 0;
  } catch (e) {
    if (isTaskError(e)) {
      log(`error [task.${e.key}]: ${e.message}`);
      return 1;
    }
    throw e;
  } finally {
    process.off('SIGINT', onSig);
  }
}
