import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { read10xMtx } from '@cellcloud/formats/read-10x-mtx';
import { folderBundle } from '@cellcloud/formats/node-sources';
import { readH5adBytes } from '@cellcloud/formats/read-h5ad';
import { writeH5ad } from '@cellcloud/formats/write-h5ad';
import type { Dataset } from '@cellcloud/formats/matrix';
import { PublicIngestError, standardizePublicH5ad } from '../src/services/public-datasets/ingest';
import { standardizePublicH5adFile } from '../src/services/public-datasets/ingest-streamed';
import { catalogueEntry, stagePublicCounts } from '../src/services/public-datasets/store';
import { localStorage } from '../src/storage/local';
import { cellxgeneH5ad, CELLXGENE_INPUTS, pbmcLabels } from './support/cellxgene';

const { pbmc, labels, features } = CELLXGENE_INPUTS;
const META = { id: 'pbmc3k-streamed', title: '3k PBMCs (streamed ingest)', licence: 'CC-BY-4.0' };

/**
 * Issue 33: the CELLxGENE ingest of a large file streams (ingest-streamed.ts). The threshold is
 * lowered to 0 cells so the pbmc3k-derived file takes that path; everything the catalogue and the
 * analysis job see must equal the whole-file path's: the standardized levels, the catalogue entry
 * (UMI totals per cell included) and the staged counts.h5ad's matrix and obs.
 */
describe.skipIf(!pbmc || !labels || !features)('public ingest of a CELLxGENE h5ad, streamed', () => {
  let dir: string;
  let data: Dataset;
  let file: string;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'cellcloud-public-streamed-'));
    data = await read10xMtx(await folderBundle(pbmc!));
    file = path.join(dir, 'pbmc3k.h5ad');
    writeFileSync(file, await cellxgeneH5ad(data, pbmcLabels()));
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('stages the same counts.h5ad and catalogue entry as the whole-file path', async () => {
    const { readFileSync } = await import('node:fs');
    const whole = await standardizePublicH5ad(new Uint8Array(readFileSync(file)), 'pbmc3k.h5ad', META);
    const streamed = await standardizePublicH5adFile(file, 'pbmc3k.h5ad', META, 0);
    expect('staged' in streamed.d).toBe(true);
    expect('staged' in whole.d).toBe(false);
    expect(streamed.s).toEqual(whole.s);
    expect(catalogueEntry(streamed)).toEqual(catalogueEntry(whole));

    const storage = localStorage(path.join(dir, 'storage'));
    await stagePublicCounts(storage, 'a/', whole);
    await stagePublicCounts(storage, 'b/', streamed);
    const staged = (streamed.d as { staged: { file: string } }).staged.file;
    expect(() => readFileSync(staged)).toThrow(); // the scratch file is removed once uploaded
    const a = await readH5adBytes(await storage.getBytes('a/counts.h5ad'), 'a.h5ad');
    const b = await readH5adBytes(await storage.getBytes('b/counts.h5ad'), 'b.h5ad');
    expect(b.counts.nCells).toBe(2638);
    expect(Array.from(b.counts.indptr)).toEqual(Array.from(a.counts.indptr));
    expect(Array.from(b.counts.indices)).toEqual(Array.from(a.counts.indices));
    expect(Array.from(b.counts.data)).toEqual(Array.from(a.counts.data));
    expect(b.genes).toEqual(a.genes);
    expect(b.cells.barcodes).toEqual(a.cells.barcodes);
    expect(Object.keys(b.cells.columns).sort()).toEqual(Object.keys(a.cells.columns).sort());
    expect(b.cells.columns.annot_full).toEqual(a.cells.columns.annot_full);
    const manifest = async (p: string) =>
      JSON.parse(new TextDecoder().decode(await storage.getBytes(`${p}manifest.json`))) as {
        shape: unknown;
      };
    expect((await manifest('b/')).shape).toEqual((await manifest('a/')).shape);
  }, 120_000);

  it('streams the counts of layers["counts"] when X holds normalized values', async () => {
    const whole = await standardizePublicH5ad(
      new Uint8Array(await cellxgeneH5ad(data, pbmcLabels())),
      'x.h5ad',
      META,
    );
    const m = (whole.d as Dataset).counts;
    // X = log1p(count) with the counts in layers["counts"], obs as the CELLxGENE file's
    const normalized = { ...m, data: m.data.map((x) => Math.log1p(x)) };
    const layered = path.join(dir, 'layered.h5ad');
    writeFileSync(
      layered,
      await writeH5ad({
        counts: m,
        normalized,
        genes: whole.d.genes,
        barcodes: whole.d.cells.barcodes,
        obs: whole.d.cells.columns,
      }),
    );
    const { readFileSync } = await import('node:fs');
    const wholeLayered = await standardizePublicH5ad(
      new Uint8Array(readFileSync(layered)),
      'layered.h5ad',
      META,
    );
    const streamed = await standardizePublicH5adFile(layered, 'layered.h5ad', META, 0);
    expect('staged' in streamed.d).toBe(true);
    expect(streamed.s.warnings).toEqual(['layered.h5ad: raw counts read from layers["counts"].']);
    expect(catalogueEntry(streamed)).toEqual(catalogueEntry(wholeLayered));
    expect(catalogueEntry(streamed).properties).toEqual({
      ...(catalogueEntry(whole).properties as object),
      warnings: streamed.s.warnings,
    });
    await stagePublicCounts(localStorage(path.join(dir, 'storage')), 'c/', streamed);
  }, 120_000);

  it('refuses a schema-violating file with the same rules, before staging anything', async () => {
    const bad = path.join(dir, 'bad.h5ad');
    writeFileSync(
      bad,
      await cellxgeneH5ad(data, pbmcLabels(), { omit: ['tissue_ontology_term_id'], badIds: true }),
    );
    const err = await standardizePublicH5adFile(bad, 'bad.h5ad', META, 0).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PublicIngestError);
    expect((err as PublicIngestError).violations.map((v) => v.rule).sort()).toEqual([
      'obs.cell_type_ontology_term_id.format',
      'obs.tissue_ontology_term_id.required',
    ]);
  }, 120_000);
});
