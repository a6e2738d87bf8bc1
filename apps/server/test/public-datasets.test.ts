import { writeFileSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PUBLIC_PATHS,
  type DatasetMappingRelation,
  type PublicDatasetDetail,
  type PublicSearchResult,
} from '@cellcloud/contracts/public-datasets';
import { read10xMtx } from '@cellcloud/formats/read-10x-mtx';
import { readH5adBytes } from '@cellcloud/formats/read-h5ad';
import { folderBundle } from '@cellcloud/formats/node-sources';
import { writeH5ad } from '@cellcloud/formats/write-h5ad';
import type { Dataset } from '@cellcloud/formats/matrix';
import { sharedData } from '@cellcloud/testkit';
import { ingestPublicH5ad, PublicIngestError } from '../src/services/public-datasets/ingest';
import { ingestPublicCli, readMetaSheet } from '../src/services/public-datasets/cli';
import { jobsRepo } from '../src/db/repos/jobs';
import { jobsDeps } from '../src/services/jobs-wire';
import { uploadSample, waitParsed } from './files-helpers';
import { cellxgeneH5ad, CELLXGENE_INPUTS, pbmcLabels, subset } from './support/cellxgene';
import { createTestServer, type TestServer } from './support/harness';
import { testUser, waitJob } from './support/jobs';

const { pbmc, labels, features } = CELLXGENE_INPUTS;
const ifnbDir = sharedData('ifnb_kang2018_subset');

describe.skipIf(!pbmc || !labels || !features || !ifnbDir)(
  'public database: CELLxGENE ingest, catalogue, permissions',
  () => {
    let s: TestServer;
    let data: Dataset;
    let ifnb: Dataset;
    let lab: Map<string, string>;
    let metaFile: string;
    let alice: Awaited<ReturnType<typeof testUser>>;
    let bob: Awaited<ReturnType<typeof testUser>>;
    let plain: Awaited<ReturnType<typeof testUser>>;

    beforeAll(async () => {
      s = await createTestServer({ WORKER_CONCURRENCY: '1' });
      await s.listen();
      data = await read10xMtx(await folderBundle(pbmc!));
      ifnb = await read10xMtx(await folderBundle(ifnbDir!));
      lab = pbmcLabels();
      const dir = mkdtempSync(path.join(os.tmpdir(), 'cellcloud-public-'));
      metaFile = path.join(dir, 'meta.yaml');
      writeFileSync(
        metaFile,
        [
          'id: pbmc3k-10x',
          'title: 3k PBMCs from a healthy donor',
          'description: Peripheral blood mononuclear cells, 10x Genomics demonstration data',
          'article:',
          '  title: Massively parallel digital transcriptional profiling of single cells',
          '  journal: Nature Communications',
          '  year: 2017',
          '  doi: 10.1038/ncomms14049',
          '  pmid: "28091601"',
          'sourceUrl: https://www.10xgenomics.com/datasets',
          'licence: CC-BY-4.0',
        ].join('\n'),
      );
      alice = await testUser(s);
      bob = await testUser(s);
      plain = await testUser(s);
      await s.ctx.db.query(`UPDATE users SET plan_id = 'synecosys' WHERE id = ANY($1)`, [
        [alice.user.id, bob.user.id],
      ]);
    }, 120_000);
    afterAll(() => s?.close());

    it('refuses a schema-violating file with a report naming each rule, and stores nothing', async () => {
      const bad = await cellxgeneH5ad(data, lab, {
        omit: ['donor_id', 'assay_ontology_term_id'],
        badIds: true,
      });
      const meta = await readMetaSheet(metaFile);
      const err = await ingestPublicH5ad(s.ctx, bad, 'bad.h5ad', meta).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(PublicIngestError);
      const rules = (err as PublicIngestError).violations.map((v) => v.rule);
      expect(rules).toEqual(
        expect.arrayContaining([
          'obs.donor_id.required',
          'obs.assay_ontology_term_id.required',
          'obs.cell_type_ontology_term_id.format',
        ]),
      );
      expect((err as Error).message).toContain('obs.donor_id.required');
      expect(await s.ctx.db.query('SELECT id FROM public_datasets')).toHaveLength(0);
      expect(await s.ctx.storage.list('public/')).toHaveLength(0);
    }, 120_000);

    it('ingests pbmc3k: catalogue entry with facets, levels, samples, article and the lineage mapping', async () => {
      const good = await cellxgeneH5ad(data, lab);
      const r = await ingestPublicH5ad(s.ctx, good, 'pbmc3k.h5ad', await readMetaSheet(metaFile));
      expect(r.cells).toBe(lab.size);
      expect(r.annotationLevels).toEqual(['annot_full', 'annot_sub']);

      const list = await s.request('GET', `${PUBLIC_PATHS.list}?q=pbmc%20blo&tissue=blood`, {
        token: alice.token,
      });
      expect(list.status).toBe(200);
      const res = list.body.data as PublicSearchResult;
      expect(res.total).toBe(1);
      expect(res.items[0]).toMatchObject({
        id: 'pbmc3k-10x',
        species: 'Homo sapiens',
        tissue: ['blood'],
        disease: ['normal'],
        sampleCount: 2,
      });
      expect(res.facets.assay).toEqual([{ value: "10x 3' v1", count: 1 }]);
      expect(res.facets.species).toEqual([{ value: 'Homo sapiens', count: 1 }]);
      const none = await s.request('GET', `${PUBLIC_PATHS.list}?q=liver`, { token: alice.token });
      expect(none.body.data.total).toBe(0);

      const det = (await s.request('GET', PUBLIC_PATHS.remoteDetail('pbmc3k-10x'), { token: bob.token })).body
        .data as PublicDatasetDetail;
      expect(det.article).toMatchObject({ doi: '10.1038/ncomms14049', pmid: '28091601', year: 2017 });
      expect(det.samples.map((x) => x.id).sort()).toEqual(['donor_A', 'donor_B']);
      expect(det.samples.reduce((a, x) => a + x.cells, 0)).toBe(lab.size);
      expect(det.ontologyIds).toEqual(
        expect.arrayContaining(['UBERON:0000178', 'CL:0001054', 'EFO:0009896']),
      );

      const map = (
        await s.request('GET', PUBLIC_PATHS.datasetMappingRelation('pbmc3k-10x'), { token: bob.token })
      ).body.data as DatasetMappingRelation;
      const sub = map.levels.find((l) => l.level === 'annot_sub')!;
      const full = map.levels.find((l) => l.level === 'annot_full')!;
      // annot_sub is the file's cell_type, with the label counts of the source.
      const truth = new Map<string, number>();
      for (const v of lab.values()) truth.set(v, (truth.get(v) ?? 0) + 1);
      expect(new Map(sub.values.map((v) => [v.value, v.count]))).toEqual(truth);
      // annot_full is coarser: the two monocyte subtypes and the three T-cell subtypes share a lineage.
      expect(full.values.length).toBeLessThan(sub.values.length);
      const lineage = new Map(map.mapping.map((m) => [m.annotSub, m.annotFull]));
      expect(lineage.get('CD14+ Mono')).toBe(lineage.get('FCGR3A+ Mono'));
      expect(new Set(['Naive CD4 T', 'Memory CD4 T', 'CD8 T'].map((t) => lineage.get(t))).size).toBe(1);
      expect(lineage.get('B')).not.toBe(lineage.get('NK'));
      expect(full.values.reduce((a, v) => a + v.count, 0)).toBe(lab.size);
    }, 120_000);

    it('re-ingest replaces atomically (new version, old files gone); withdrawal hides', async () => {
      const before = (await s.ctx.storage.list('public/pbmc3k-10x/')).filter((k) =>
        k.endsWith('counts.h5ad'),
      );
      const r = await ingestPublicH5ad(
        s.ctx,
        await cellxgeneH5ad(data, lab),
        'pbmc3k.h5ad',
        await readMetaSheet(metaFile),
      );
      expect(r.version).toBe(2);
      const after = (await s.ctx.storage.list('public/pbmc3k-10x/')).filter((k) => k.endsWith('counts.h5ad'));
      expect(after).toEqual(['public/pbmc3k-10x/v2/counts.h5ad']);
      expect(before).not.toEqual(after);
    }, 120_000);

    it('public datasets are wizard samples: integrated with the ifnb stim half of a user (Harmony), labels transferred onto the user cells', async () => {
      const list = await s.request('GET', '/api/wizard/samples?source=public', { token: alice.token });
      expect(list.status).toBe(200);
      expect(list.body.data).toEqual([
        expect.objectContaining({ id: 'public:pbmc3k-10x', species: 'Homo sapiens', cells: lab.size }),
      ]);
      // The local list stays local; without the permission the public list and a public submission are refused.
      expect((await s.request('GET', '/api/wizard/samples', { token: alice.token })).body.data).toEqual([]);
      expect(
        (await s.request('GET', '/api/wizard/samples?source=public', { token: plain.token })).status,
      ).toBe(403);
      const pub = { id: 'public:pbmc3k-10x', name: 'pbmc3k_public', group: 'public' };
      expect(
        (
          await s.request('POST', '/api/jobs', {
            token: plain.token,
            body: { datasets: [pub], param: { jobName: 'denied' } },
          })
        ).status,
      ).toBe(403);
      // the user's own sample: the IFN-β stimulated half of Kang 2018, uploaded as an h5ad (symbols only)
      const stim = ifnb.cells.barcodes.flatMap((b, i) => (b.startsWith('stim_') ? [i] : []));
      const all = Int32Array.from({ length: ifnb.genes.ids.length }, (_, g) => g);
      const bytes = await writeH5ad({
        counts: subset(ifnb.counts, stim, all, all.length),
        genes: ifnb.genes,
        barcodes: stim.map((i) => ifnb.cells.barcodes[i]!),
        obs: {},
      });
      const up = await uploadSample(
        s,
        alice.token,
        'ifnb_stim',
        [{ name: 'ifnb_stim.h5ad', bytes }],
        'annotated',
      );
      expect((await waitParsed(s, alice.token, up.id)).state).toBe('completed');
      const draft = {
        datasets: [{ id: up.id, name: 'ifnb_stim', group: 'user' }, pub],
        param: { jobName: 'public_run', batchRemoveMethod: 'harmony', doubletState: false },
      };
      const r = await s.request('POST', '/api/jobs', { token: alice.token, body: draft });
      expect(r.status).toBe(200);
      const done = await waitJob(
        s,
        alice.token,
        r.body.data.id,
        (j) => j.status === 'completed' || j.status === 'error',
        600_000,
      );
      expect(done.message).toBeNull();
      expect(done.status).toBe('completed');
      const res = await readH5adBytes(
        await s.ctx.storage.getBytes(`results/${done.id}/analysis.h5ad`),
        'a.h5ad',
      );
      const col = (k: string) => res.cells.columns[k]!.values as ArrayLike<unknown>;
      const sample = col('Sample ID') as string[];
      const full = col('annot_full') as string[];
      const source = col('annotation_source') as string[];
      const conf = col('annot_full_confidence') as Float64Array;
      const user = sample.flatMap((x, i) => (x === 'ifnb_stim' ? [i] : []));
      expect(user.length).toBeGreaterThan(800);
      // every user cell got a transferred lineage (or "unassigned") with its confidence; public cells keep theirs
      const lineages = new Set(full.filter((_, i) => sample[i] === 'pbmc3k_public'));
      for (const i of user) {
        expect(source[i]).toBe('transferred');
        expect(lineages.has(full[i]!) || full[i] === 'unassigned').toBe(true);
        expect(conf[i]).toBeGreaterThan(0);
      }
      const tCells = user.filter((i) => full[i] === 'T cell').length;
      expect(tCells / user.length).toBeGreaterThan(0.3); // PBMCs: T cells are the largest lineage
      const summary = JSON.parse(
        new TextDecoder().decode(
          await s.ctx.storage.getBytes(`results/${done.id}/artifacts/label-transfer.json`),
        ),
      );
      expect(summary).toMatchObject({ k: 15, minConfidence: 0.5, queryCells: user.length });
      // My Analyses' "show only integrated SynEcoSys datasets": a local-only analysis is left out
      await jobsRepo.insert(s.ctx.db, {
        userId: alice.user.id,
        jobName: 'local_only',
        kind: 'integrated',
        species: 'Homo sapiens',
        sampleIds: [up.id],
        params: {},
        draft: {},
        cacheKey: 'local-only',
      });
      const names = async (q: string) =>
        (
          (await s.request('GET', `/api/jobs?kind=integrated${q}`, { token: alice.token })).body.data
            .rows as {
            jobName: string;
          }[]
        ).map((j) => j.jobName);
      expect((await names('')).sort()).toEqual(['local_only', 'public_run']);
      expect(await names('&synEcoSysOnly=true')).toEqual(['public_run']);
      expect((await names('&synEcoSysOnly=false')).sort()).toEqual(['local_only', 'public_run']);
      const rel = await s.request('GET', PUBLIC_PATHS.datasetRelation, { token: alice.token });
      expect(rel.body.data).toEqual([
        expect.objectContaining({ analysisName: 'public_run', publicDatasetIds: ['pbmc3k-10x'] }),
      ]);
    }, 700_000);

    it('is shared read-only: another user sees it; non-admins cannot withdraw; users without the permission get 403', async () => {
      const seen = await s.request('GET', PUBLIC_PATHS.one('pbmc3k-10x'), { token: bob.token });
      expect(seen.status).toBe(200);
      const withdraw = await s.request('POST', PUBLIC_PATHS.withdraw('pbmc3k-10x'), { token: alice.token });
      expect(withdraw.status).toBe(403);
      const denied = await s.request('GET', PUBLIC_PATHS.list, { token: plain.token });
      expect(denied.status).toBe(403);
      expect(denied.body.msg).toBeTruthy();
      // Quota: public files are under public/, outside every user's storage prefix.
      expect((await s.ctx.storage.list('public/')).every((k) => k.startsWith('public/'))).toBe(true);
      await s.ctx.db.query('UPDATE users SET is_admin = true WHERE id = $1', [bob.user.id]);
      const w = await s.request('POST', PUBLIC_PATHS.withdraw('pbmc3k-10x'), { token: bob.token });
      expect(w.status).toBe(200);
      expect((await s.request('GET', PUBLIC_PATHS.one('pbmc3k-10x'), { token: alice.token })).status).toBe(
        404,
      );
      expect((await s.request('GET', PUBLIC_PATHS.list, { token: alice.token })).body.data.total).toBe(0);
    }, 120_000);

    it('ingests 10x counts with a metadata sheet (ifnb, batch → Sample ID); a sheet breaking rules is refused', async () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'cellcloud-public-ifnb-'));
      const sheet = (extra: string[]) => {
        const f = path.join(dir, `meta-${extra.length}.yaml`);
        writeFileSync(
          f,
          [
            'id: ifnb-kang2018',
            'title: IFN-beta stimulated and control PBMCs (Kang 2018 subset)',
            'species: Homo sapiens',
            `cells: ${path.join(ifnbDir!, 'ifnb_metadata.csv.gz')}`,
            ...extra,
          ].join('\n'),
        );
        return f;
      };
      const bad = await ingestPublicCli(
        { ...s.ctx, queue: jobsDeps(s.ctx).queue },
        'ingest-public',
        ifnbDir!,
        sheet(['columns:', '  sample: donor']),
      ).catch((e: unknown) => e);
      expect(bad).toBeInstanceOf(PublicIngestError);
      expect((bad as PublicIngestError).violations.map((v) => v.rule).sort()).toEqual([
        'cells.column.donor.missing',
        'meta.assay.required',
        'meta.disease.required',
        'meta.tissue.required',
      ]);
      expect(await s.ctx.storage.list('public/ifnb-kang2018/')).toHaveLength(0);

      const out = await ingestPublicCli(
        { ...s.ctx, queue: jobsDeps(s.ctx).queue },
        'ingest-public',
        ifnbDir!,
        sheet([
          'tissue: [blood]',
          'disease: [normal]',
          'assay: ["10x 3\' v1"]',
          'columns:',
          '  sample: batch',
        ]),
      );
      expect(out).toContain('ingested public dataset ifnb-kang2018 v1: 2000 cells, 9015 genes');
      const found = (
        await s.request('GET', `${PUBLIC_PATHS.list}?q=kang&assay=10x%203'%20v1`, { token: alice.token })
      ).body.data as PublicSearchResult;
      expect(found.total).toBe(1);
      expect(found.items[0]).toMatchObject({
        id: 'ifnb-kang2018',
        tissue: ['blood'],
        cells: 2000,
        sampleCount: 2,
      });
      const det = (await s.request('GET', PUBLIC_PATHS.one('ifnb-kang2018'), { token: alice.token })).body
        .data as PublicDatasetDetail;
      expect(det.samples.map((x) => [x.id, x.cells]).sort()).toEqual([
        ['ctrl', 1000],
        ['stim', 1000],
      ]);
      // the stored dataset carries the batch as Sample ID (the analysis job's sample column)
      const stored = await readH5adBytes(
        await s.ctx.storage.getBytes('public/ifnb-kang2018/v1/counts.h5ad'),
        'counts.h5ad',
      );
      expect(new Set(stored.cells.columns['Sample ID']!.values as string[])).toEqual(
        new Set(['ctrl', 'stim']),
      );
    }, 300_000); // the CLI waits for the standard analysis of 2,000 cells: 120 s timed out at load 17
  },
);
