import type { AppContext } from '../context';
import { downloadsRepo } from '../db/repos/downloads';
import { jobsRepo } from '../db/repos/jobs';
import type { NotificationsService } from '../services/notifications';
import { downloadKey, sourceKeyOf } from '../services/downloads/requests';
import { levelProvenance } from '../services/explore/level-provenance';
import type { ExportInput } from './download.export.child';
import { figuresOf, tablesOf } from './download.sources';
import type { ExtraObsSource } from './extra-obs';
import { extraObsSources } from './extra-obs-sources';
import { storedResultSize } from './runner-child-budget';
import { childTask, runInChild } from './runner-child-process';

/**
 * The per-cell columns a download adds to the stored obs, by column name: completed tasks' columns
 * under their key (a key the analysis already has keeps the analysis' column, as in the explorer;
 * of two tasks the newer wins), then the saved levels under their names (suffixed `_saved` when the
 * name is taken).
 */
export function exportColumns(
  stored: string[],
  sources: ExtraObsSource[],
): (ExtraObsSource & { column: string })[] {
  const own = new Set(stored);
  const out = new Map<string, ExtraObsSource & { column: string }>();
  for (const s of sources)
    if (s.kind !== 'subset' && !own.has(s.key)) out.set(s.key, { ...s, column: s.key });
  for (const s of sources) {
    if (s.kind !== 'subset') continue;
    let column = s.name;
    for (let i = 1; own.has(column) || out.has(column); i++) column = `${s.name}_saved${i > 1 ? i : ''}`;
    out.set(column, { ...s, column });
  }
  return [...out.values()];
}

/**
 * Job `download.export` (issue 21): writes the file of an approved request under
 * `downloads/<requestId>/` — markers.csv as stored (streamed); the h5ad or the Seurat bundle in a
 * memory-capped child process from analysis.h5ad plus the annotation levels saved since and the
 * tasks' per-cell columns (issue 13: the download holds every level the explorer shows); the
 * tables / figures zips (markers, saved DE results, every completed task's tables; the result's
 * figures rendered as SVG + PNG) in the same child — then starts the validity and notifies the user.
 */
export async function handleDownloadExport(
  ctx: AppContext,
  notifications: NotificationsService,
  data: { requestId: string },
): Promise<void> {
  const r = await downloadsRepo.get(ctx.db, data.requestId);
  if (!r || r.status !== 'approved' || r.export_state === 'ready') return;
  await downloadsRepo.setExport(ctx.db, r.id, 'running');
  try {
    const source = await sourceKeyOf(ctx, r.job_id, r.kind);
    const key = downloadKey(r.id, r.file_name);
    if (r.kind === 'markers') {
      await ctx.storage.put(key, await ctx.storage.get(source));
    } else if (r.kind === 'tables' || r.kind === 'figures') {
      const job = await jobsRepo.get(ctx.db, r.job_id);
      const meta = { outKey: key, lang: r.lang, resultName: r.job_name || r.job_id };
      await runInChild(
        childTask<ExportInput>(
          new URL('./download.export.child.ts', import.meta.url),
          r.id,
          r.kind === 'tables'
            ? { kind: 'tables', ...meta, tables: await tablesOf(ctx, r.job_id, source) }
            : {
                kind: 'figures',
                ...meta,
                figures: await figuresOf(ctx, r.job_id, job?.result_of ?? r.job_id),
              },
        ),
        { config: ctx.config, memoryBytes: ctx.config.workerMemoryBytes },
      );
    } else {
      const size = await storedResultSize(ctx.storage, source.slice(0, -'analysis.h5ad'.length));
      if (!size) throw new Error(`the stored result of ${r.job_id} is incomplete`);
      const extraObs = exportColumns(
        size.manifest.obs.map((o) => o.key),
        await extraObsSources(ctx, r.job_id),
      );
      // the provenance of each exported curated level (issue 35): authors and last change, in uns
      const curated = new Map((await levelProvenance(ctx, r.job_id)).map((p) => [`subset:${p.subsetId}`, p]));
      const curation = Object.fromEntries(
        extraObs.flatMap((s) => {
          const p = curated.get(s.key);
          return p
            ? [
                [
                  s.column,
                  {
                    level: p.name,
                    version: p.version,
                    authors: p.authors,
                    last_author: p.lastAuthor ?? '',
                    last_change: p.lastChange,
                    last_action: p.lastAction,
                  },
                ],
              ]
            : [];
        }),
      );
      // the conversion is CPU and memory heavy: a memory-capped child, never the API's event loop
      await runInChild(
        childTask<ExportInput>(new URL('./download.export.child.ts', import.meta.url), r.id, {
          kind: r.kind,
          h5adKey: source,
          outKey: key,
          nCells: size.nCells,
          extraObs,
          uns: Object.keys(curation).length ? { cellcloud_curation: curation } : {},
        }),
        { config: ctx.config, memoryBytes: ctx.config.workerMemoryBytes },
      );
    }
    const st = await ctx.storage.stat(key);
    await downloadsRepo.ready(ctx.db, r.id, key, st?.size ?? 0);
    await notifications.create(r.user_id, 'download.ready', { name: r.file_name });
  } catch (e) {
    await downloadsRepo.setExport(ctx.db, r.id, 'failed');
    throw e;
  }
}
