import type { AppContext } from '../context';
import { exploreDegTasksRepo } from '../db/repos/explore-deg-tasks';
import { exploreSubsetsRepo } from '../db/repos/explore-subsets';
import { embeddingsOf } from '../services/tasks/explorer-obs';
import { completedWithOutputs } from '../services/tasks/outputs';
import { degResultKey, resultsPrefix, subsetCodesKey } from '../storage/keys';
import type { TableEntry } from './download.tables';
import type { FiguresSource } from './figures/read';

/**
 * What the tables and figures downloads of a result collect (issue 21), as storage keys for the
 * export child: the saved explorer DE results, the completed downstream tasks (outputs.json: their
 * tables and per-cell columns) and the saved annotation levels.
 */
async function savedDe(ctx: AppContext, datasetId: string) {
  const rows = (await exploreDegTasksRepo.list(ctx.db, datasetId)).filter((r) => r.status === 'completed');
  const taken = new Set<string>();
  return rows.reverse().map((r) => {
    let name =
      r.mode === 'compare'
        ? `${r.labels[0] ?? 'A'} vs ${r.labels[1] ?? 'B'}`
        : `${r.grouping ?? 'cluster'} markers`;
    if (taken.has(name)) name = `${name} (${r.id.slice(0, 8)})`;
    taken.add(name);
    return { name, mode: r.mode, key: degResultKey(datasetId, r.id) };
  });
}

async function completedTasks(ctx: AppContext, datasetId: string) {
  return (await completedWithOutputs(ctx, datasetId)).map((t) => ({
    ...t,
    name: `${t.row.task}_${t.row.id.slice(0, 8)}`,
  }));
}

const fileStem = (s: string) => s.replace(/[^A-Za-z0-9_.-]+/g, '_');

export async function tablesOf(ctx: AppContext, jobId: string, markersKey: string): Promise<TableEntry[]> {
  const entries: TableEntry[] = [];
  if (await ctx.storage.stat(markersKey))
    entries.push({ path: 'markers.csv', sheet: 'markers', key: markersKey, format: 'csv' });
  for (const d of await savedDe(ctx, jobId))
    entries.push({
      path: `de/${fileStem(d.name)}.csv`,
      sheet: `DE ${d.name}`,
      key: d.key,
      format: 'deg-json',
    });
  for (const t of await completedTasks(ctx, jobId))
    for (const tb of t.outputs.tables)
      entries.push({
        path: `tasks/${t.name}/${fileStem(tb.name)}.csv`,
        sheet: `${t.row.task} ${tb.name}`,
        key: t.row.output_prefix + tb.file,
        format: 'csv',
      });
  return entries;
}

export async function figuresOf(ctx: AppContext, jobId: string, resultId: string): Promise<FiguresSource> {
  const extraLevels: FiguresSource['extraLevels'] = (await exploreSubsetsRepo.list(ctx.db, jobId)).map(
    (s) => ({
      key: `subset:${s.id}`,
      kind: 'subset',
      codesKey: subsetCodesKey(jobId, s.id),
      labels: s.labels,
      name: s.name,
      column: s.name,
    }),
  );
  const tasks = await completedTasks(ctx, jobId);
  for (const t of tasks)
    for (const o of t.outputs.obs)
      if (o.kind === 'categorical')
        extraLevels.push({
          key: o.key,
          kind: 'categorical',
          fileKey: t.row.output_prefix + o.file,
          dtype: o.dtype,
          labels: o.labels,
          column: o.key,
        });
  return {
    artifactsPrefix: `${resultsPrefix(resultId)}artifacts/`,
    extraLevels,
    // 2-D layouts computed on demand (the layout task's t-SNE), drawn as the analysis' own
    embeddings: [...embeddingsOf(tasks).values()]
      .filter((e) => e.dims === 2)
      .map((e) => ({ name: e.name, key: e.fileKey })),
    de: (await savedDe(ctx, jobId)).filter((d) => d.mode === 'compare'),
    tasks: tasks.map((t) => ({
      task: t.row.task,
      name: t.name,
      tables: t.outputs.tables.map((tb) => ({ name: tb.name, key: t.row.output_prefix + tb.file })),
      numeric: t.outputs.obs.flatMap((o) =>
        o.kind === 'numeric' ? [{ key: o.key, fileKey: t.row.output_prefix + o.file }] : [],
      ),
    })),
  };
}
