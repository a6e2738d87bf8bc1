import { readFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TASK_API, type TaskDefaultsView, type TaskView } from '@cellcloud/contracts/tasks/api';
import { writeH5adWithObs } from '@cellcloud/formats/h5ad-with-obs';
import { readH5adBytes } from '@cellcloud/formats/read-h5ad';
import { TASKS } from '@cellcloud/tasks/contract';
import { sharedData } from '@cellcloud/testkit';
import { createTestServer, TEST_DB, type TestServer } from './support/harness';
import { testUser } from './support/jobs';
import { PBMC_H5AD, pbmcResult } from './support/pbmc-result';

/**
 * Every analysis task runs on the defaults computed from the dataset (issue 31): on the real
 * pbmc3k result (tissue PBMC recorded as the wizard does), automatic annotation is POSTed with
 * `params: {}` first, then every other task of the registry, one after the other, each with
 * `params: {}` (V(D)J with the shipped 10x contigs re-barcoded onto pbmc3k); each completes and the
 * stored params show the resolved defaults (the annotation level, the CNV reference…). The
 * defaults endpoint answers the same params with a reason per field in both languages.
 */
const contigs = sharedData('vdj_10x/vdj_nextgem_hs_pbmc3_t_filtered_contig_annotations.csv.gz');

function contigsOn(barcodes: readonly string[]): string {
  const [head, ...lines] = gunzipSync(readFileSync(contigs!)).toString().trim().split('\n');
  const map = new Map<string, string>();
  const out = lines.map((l) => {
    const comma = l.indexOf(',');
    const bc = l.slice(0, comma);
    if (!map.has(bc)) map.set(bc, barcodes[map.size % barcodes.length]!);
    return map.get(bc)! + l.slice(comma);
  });
  return gzipSync([head, ...out].join('\n') + '\n').toString('base64');
}

/**
 * The stored analysis.h5ad with the pipeline's obs names the explorer artifacts already have
 * (`cluster`, `Sample ID`), as the pipeline writes both: tasks read their levels from the h5ad.
 */
async function withPipelineObs(s: TestServer, prefix: string): Promise<void> {
  const key = `${prefix}analysis.h5ad`;
  const bytes = await s.ctx.storage.getBytes(key);
  const ds = await readH5adBytes(bytes, 'analysis.h5ad');
  const clusters = Array.from(ds.cells.columns.seurat_cluster!.values as ArrayLike<unknown>, String);
  const parts: { at: number; bytes: Uint8Array }[] = [];
  const size = await writeH5adWithObs(
    bytes,
    {
      cluster: { kind: 'categorical', values: clusters },
      'Sample ID': { kind: 'categorical', values: clusters.map(() => 'pbmc3k') },
    },
    { write: async (b, at) => void parts.push({ at, bytes: b.slice() }) },
  );
  const out = new Uint8Array(size);
  for (const p of parts) out.set(p.bytes, p.at);
  await s.ctx.storage.put(key, out);
}

async function waitTask(s: TestServer, token: string, datasetId: string, id: string): Promise<TaskView> {
  const end = Date.now() + 600_000;
  let last: TaskView | undefined;
  while (Date.now() < end) {
    last = (await s.request('GET', TASK_API.one(datasetId, id), { token })).body.data as TaskView;
    if (last && (last.status === 'completed' || last.status === 'failed')) return last;
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`task ${id} did not finish: ${JSON.stringify(last)}`);
}

// the 13 task runs (~2–4 min) exercise the defaults, not the database: once, in the PGlite run
describe.skipIf(!PBMC_H5AD || !contigs || TEST_DB === 'postgres')(
  'every task runs with params {} on pbmc3k',
  () => {
    let s: TestServer;
    let owner: Awaited<ReturnType<typeof testUser>>;
    let data: Awaited<ReturnType<typeof pbmcResult>>;

    beforeAll(async () => {
      s = await createTestServer();
      owner = await testUser(s);
      data = await pbmcResult(s, owner.user.id, 'pbmc_defaults');
      await withPipelineObs(s, data.prefix);
      // the wizard records the tissue type with an automatic annotation
      await s.ctx.db.query(`UPDATE analysis_jobs SET params = $2::jsonb WHERE id = $1`, [
        data.id,
        JSON.stringify({ referenceTissue: 'PBMC' }),
      ]);
    }, 120_000);
    afterAll(() => s?.close());

    it('POSTs annotate then every other task with empty params; each completes on dataset defaults', async () => {
      const order = ['annotate', ...TASKS.map((t) => t.name).filter((n) => n !== 'annotate')];
      const seconds: Record<string, number> = {};
      const params: Record<string, Record<string, unknown>> = {};
      const t0 = Date.now();
      for (const task of order) {
        const started = Date.now();
        const uploads =
          task === 'vdj'
            ? {
                contigs: { fileName: 'filtered_contig_annotations.csv.gz', base64: contigsOn(data.barcodes) },
              }
            : undefined;
        const r = await s.request('POST', TASK_API.list(data.id), {
          token: owner.token,
          body: { task, params: {}, ...(uploads ? { uploads } : {}) },
        });
        expect(r.status, `${task}: ${r.raw}`).toBe(200);
        const done = await waitTask(s, owner.token, data.id, (r.body.data as TaskView).id);
        expect(done.status, `${task}: ${JSON.stringify(done)}`).toBe('completed');
        params[task] = done.params;
        seconds[task] = Math.round((Date.now() - started) / 100) / 10;
      }
      console.log(`tasks with params {}: ${(Date.now() - t0) / 1000} s`, seconds);
      const DATASET_FIELDS = [
        'groupBy',
        'reference',
        'group1',
        'group2',
        'sourceTaskId',
        'builtinSet',
        'species',
        'tissue',
      ];
      for (const [task, p] of Object.entries(params))
        console.log(
          task,
          JSON.stringify(Object.fromEntries(DATASET_FIELDS.filter((k) => k in p).map((k) => [k, p[k]]))),
        );
      // the later tasks group by the automatic annotation the first run wrote
      expect(params.interaction!.groupBy).toBe('annot_auto');
      expect(params.cnv!.groupBy).toBe('annot_auto');
      expect((params.cnv!.reference as string[]).length).toBeGreaterThan(0);
      expect(params.annotate!.species).toBe('Homo sapiens');
      expect(params.annotate!.tissue).toBe('PBMC');
      expect(params['cell-score']!.builtinSet).toBe('cellCycleG2M');
      expect(typeof params.enrich!.sourceTaskId).toBe('string');
    }, 3_600_000);

    it('answers the defaults with a reason per field in both languages, naming no internal key', async () => {
      for (const lang of ['en-US', 'zh-CN'] as const) {
        const r = await s.request('GET', TASK_API.defaults(data.id, 'cnv'), { token: owner.token, lang });
        expect(r.status, r.raw).toBe(200);
        const d = r.body.data as TaskDefaultsView;
        expect(Object.keys(d.params).sort()).toEqual(['groupBy', 'reference']);
        expect(d.reasons.map((x) => x.field).sort()).toEqual(['groupBy', 'reference']);
        for (const x of d.reasons) {
          expect(x.text).not.toMatch(/tasks\.defaults|\[object/);
          expect(x.text).toContain('annot_auto');
        }
        if (lang === 'zh-CN') expect(d.reasons[0]!.text).toMatch(/[\u4e00-\u9fff]/);
      }
      const unknown = await s.request('GET', TASK_API.defaults(data.id, 'nope'), { token: owner.token });
      expect(unknown.status).toBe(404);
    });

    it('drops the default built-in gene set once the form holds a gene set file', async () => {
      const get = async (uploads: string[]) => {
        const r = await s.request('GET', TASK_API.defaults(data.id, 'cell-score', uploads), {
          token: owner.token,
        });
        expect(r.status, r.raw).toBe(200);
        return (r.body.data as TaskDefaultsView).params;
      };
      expect((await get([])).builtinSet).toBe('cellCycleG2M');
      expect(await get(['geneSet'])).not.toHaveProperty('builtinSet');
      // a name that is not one of the task's uploads changes nothing
      expect((await get(['contigs'])).builtinSet).toBe('cellCycleG2M');
    });
  },
);
