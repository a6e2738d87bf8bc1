import type { DownloadKind } from '@cellcloud/contracts/downloads';
import type { ProjectGroupView, ResultFileView } from '@cellcloud/contracts/my-files';
import type { AppContext } from '../../context';
import { myFilesRepo } from '../../db/repos/my-files';
import { resultsPrefix } from '../../storage/keys';

/** Files of a result that can be requested as a download (POST /api/downloads kinds). */
const KIND_OF: Record<string, DownloadKind> = { 'analysis.h5ad': 'h5ad', 'markers.csv': 'markers' };

/** Keys under `prefix` that are files for a person: top-level files and `tables/*` (not per-cell columns or viewer chunks). */
async function filesUnder(ctx: AppContext, prefix: string): Promise<string[]> {
  const keys = await ctx.storage.list(prefix);
  return keys.filter((k) => {
    const rest = k.slice(prefix.length);
    return !rest.includes('/') || /^tables\/[^/]+$/.test(rest);
  });
}

/** Every result file of the user's completed analyses and their completed downstream tasks. */
export async function listResultFiles(ctx: AppContext, userId: string): Promise<ResultFileView[]> {
  const [jobs, tasks] = await Promise.all([
    myFilesRepo.completedJobs(ctx.db, userId),
    myFilesRepo.completedTasks(ctx.db, userId),
  ]);
  const byId = new Map(jobs.map((j) => [j.id, j]));
  const out: ResultFileView[] = [];
  const add = async (
    prefix: string,
    job: (typeof jobs)[number],
    task: { id: string; name: string } | null,
  ) => {
    for (const key of await filesUnder(ctx, prefix)) {
      const st = await ctx.storage.stat(key);
      if (!st) continue;
      const fileName = key.slice(prefix.length);
      out.push({
        id: `${job.id}:${task?.id ?? ''}:${fileName}`,
        datasetId: job.id,
        analysisId: job.analysis_id,
        jobName: job.job_name,
        task: task?.name ?? null,
        fileName,
        size: st.size,
        producedAt: st.mtime.toISOString(),
        downloadKind: task ? null : (KIND_OF[fileName] ?? null),
      });
    }
  };
  for (const j of jobs) await add(resultsPrefix(j.result_of ?? j.id), j, null);
  for (const t of tasks) {
    const job = byId.get(t.dataset_id);
    if (job)
      await add(t.output_prefix.endsWith('/') ? t.output_prefix : `${t.output_prefix}/`, job, {
        id: t.id,
        name: t.task,
      });
  }
  return out;
}

/**
 * CeleScope imports grouped by project: a sample named `<project>/<sample>` (or
 * `<project>_<sample>`) belongs to `<project>`; a name without a separator is its own project.
 */
export async function listProjectFiles(ctx: AppContext, userId: string): Promise<ProjectGroupView[]> {
  const groups = new Map<string, ProjectGroupView>();
  for (const u of await myFilesRepo.celescopeUploads(ctx.db, userId)) {
    const m = /^(.+?)[/_]/.exec(u.sample_name);
    const project = m ? m[1]! : u.sample_name;
    const g = groups.get(project) ?? { project, samples: [] };
    g.samples.push({
      id: u.id,
      sampleName: u.sample_name,
      state: u.state,
      size: Number(u.total_size),
      importedAt: new Date(u.created_at).toISOString(),
      retryable: u.state === 'failed' && u.retryable,
    });
    groups.set(project, g);
  }
  const byName = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
  for (const g of groups.values()) g.samples.sort((x, y) => byName(x.sampleName, y.sampleName));
  return [...groups.values()].sort((x, y) => byName(x.project, y.project));
}
