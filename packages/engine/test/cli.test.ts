import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDataset, write10xMtx } from '@cellcloud/formats';
import { pathBundle } from '@cellcloud/formats/node-sources';
import { REPO_ROOT } from '@cellcloud/testkit';
import { parseArgs, sampleName, UsageError } from '../src/cli/args';
import { countInputCells, useOutOfCore } from '../src/cli/out-of-core';
import { syntheticDataset } from '../src/synthetic';
import { MARKER_CSV_HEADER } from '../src/write-outputs';

const BIN = path.join(REPO_ROOT, 'packages/engine/bin/cellcloud.mjs');

function cli(args: string[]) {
  return spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', cwd: REPO_ROOT, timeout: 600_000 });
}

describe('cellcloud CLI arguments', () => {
  it('parses inputs, --out and --params and names samples after their files', () => {
    expect(parseArgs(['analyze', 'a/s1', 'b/s2.h5ad', '--out', 'o', '--params', 'p.json'])).toEqual({
      inputs: ['a/s1', 'b/s2.h5ad'],
      out: 'o',
      params: 'p.json',
      obs: [],
      quiet: false,
      timings: false,
    });
    expect(parseArgs(['analyze', 'a', '--out', 'o', '--timings']).timings).toBe(true);
    expect(parseArgs(['analyze', 'a', '--out', 'o', '--out-of-core']).outOfCore).toBe(true);
    expect(parseArgs(['analyze', 'a', '--out', 'o', '--in-memory']).outOfCore).toBe(false);
    expect(
      parseArgs(['analyze', 'a', '--out', 'o', '--obs', 'labels.csv', '--obs', 'groups.tsv']).obs,
    ).toEqual(['labels.csv', 'groups.tsv']);
    expect(sampleName('/data/pbmc_1.tar.gz')).toBe('pbmc_1');
    expect(sampleName('/data/ctrl/')).toBe('ctrl');
    expect(() => parseArgs(['analyze', 'x'])).toThrow(UsageError);
    expect(() => parseArgs(['analyse', 'x', '--out', 'o'])).toThrow(/Unknown command/);
  });
});

describe('cellcloud analyze on two small 10x samples', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'cellcloud-cli-'));
    for (const [i, name] of ['s1', 's2'].entries()) {
      const { dataset } = syntheticDataset({
        nCells: 400,
        nGenes: 1500,
        nClusters: 4,
        markersPerCluster: 30,
        seed: 5,
        cellSeed: 50 + i,
      });
      const files = write10xMtx(dataset.counts, dataset.genes, dataset.cells.barcodes);
      await mkdir(path.join(dir, name));
      for (const [file, bytes] of Object.entries(files))
        await writeFile(path.join(dir, name, `${file}.gz`), bytes);
    }
    await writeFile(
      path.join(dir, 'params.json'),
      JSON.stringify({ doubletDetectionAndRemoval: false, pcValue: 10 }),
    );
  }, 120_000);
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  /** `analyze s1 s2 --out <out> --params params.json <flag>` */
  const analyzeBoth = (out: string, flag: string) =>
    cli([
      'analyze',
      path.join(dir, 's1'),
      path.join(dir, 's2'),
      '--out',
      out,
      '--params',
      path.join(dir, 'params.json'),
      flag,
    ]);

  it('writes analysis.h5ad, markers.csv and the artifacts, one sample per input', async () => {
    const out = path.join(dir, 'out');
    const r = analyzeBoth(out, '--timings');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/read s1: 400 cells/);
    // --timings: one row per step (wall s, CPU s, GC ms (count), RSS MB), then the total and peak
    const rows = r.stderr.slice(r.stderr.indexOf('timings:')).split('\n');
    const row = (step: string) =>
      rows.find((l) => l.trim().startsWith(`${step} `))?.match(/([\d.]+)\s+([\d.]+)\s+\d+ \(\d+\)\s+(\d+)/);
    for (const step of ['read', 'pca', 'clusters', 'markers', 'tsne', 'write'])
      expect(row(step), step).toBeTruthy();
    const total = row('total')!;
    expect(Number(total[1])).toBeGreaterThan(Number(row('pca')![1]));
    expect(Number(total[3])).toBeGreaterThan(50); // peak RSS MB
    const back = await readDataset(await pathBundle(path.join(out, 'analysis.h5ad')));
    const samples = back.cells.columns['Sample ID'];
    expect(samples?.kind === 'categorical' && [...new Set(samples.values)].sort()).toEqual(['s1', 's2']);
    expect(back.cells.columns.cluster?.kind).toBe('categorical');
    const csv = await readFile(path.join(out, 'markers.csv'), 'utf8');
    expect(csv.split('\n')[0]).toBe(MARKER_CSV_HEADER.join(','));
    const manifest = JSON.parse(await readFile(path.join(out, 'artifacts/manifest.json'), 'utf8'));
    expect(manifest.embeddings.map((e: { name: string }) => e.name).sort()).toEqual([
      'tsne',
      'tsne3D',
      'umap',
      'umap3D',
    ]);
  }, 600_000);

  it('--out-of-core analyses from count stores with the same clusters and markers', async () => {
    const inMemory = path.join(dir, 'out'); // written by the test above
    const out = path.join(dir, 'out-of-core');
    const r = analyzeBoth(out, '--out-of-core');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/out-of-core/);
    expect(r.stderr).toMatch(
      /stored s1: 400 cells × 1500 genes, \d+ non-zeros, [\d.]+ B per non-zero \(streamed/,
    );
    const read = async (d: string) =>
      (await readDataset(await pathBundle(path.join(d, 'analysis.h5ad')))).cells;
    const [a, b] = [await read(inMemory), await read(out)];
    expect(b.barcodes).toEqual(a.barcodes);
    expect(b.columns.cluster).toEqual(a.columns.cluster);
    expect(await readFile(path.join(out, 'markers.csv'), 'utf8')).toBe(
      await readFile(path.join(inMemory, 'markers.csv'), 'utf8'),
    );
  }, 600_000);

  it('takes the out-of-core path by size unless an option has no streamed version', async () => {
    const both = [path.join(dir, 's1'), path.join(dir, 's2')];
    expect(await countInputCells(both)).toBe(800);
    expect(await useOutOfCore(both, undefined, {}, 800)).toBe(true);
    expect(await useOutOfCore(both, undefined, {}, 801)).toBe(false);
    // cell-cycle regression and ambient RNA removal run in memory only
    expect(await useOutOfCore(both, undefined, { removeCellCycleEffects: true }, 800)).toBe(false);
    expect(await useOutOfCore(both, undefined, { ambientRnaRemoval: { enabled: true } }, 800)).toBe(false);
    // so does the automatic annotation
    expect(await useOutOfCore(both, undefined, { chooseAnnotationType: 'auto' }, 800)).toBe(false);
    expect(await useOutOfCore(both, undefined, { chooseAnnotationType: 'none' }, 800)).toBe(true);
    // --out-of-core / --in-memory win
    expect(await useOutOfCore(both, true, { removeCellCycleEffects: true }, 801)).toBe(true);
    expect(await useOutOfCore(both, false, {}, 1)).toBe(false);
  });

  it('fails with a clear message on bad parameters or a missing --out', () => {
    const bad = cli([
      'analyze',
      path.join(dir, 's1'),
      '--out',
      path.join(dir, 'o2'),
      '--params',
      path.join(dir, 'nope.json'),
    ]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/Cannot read the parameter file .*nope\.json: no such file/);
    const usage = cli(['analyze', path.join(dir, 's1')]);
    expect(usage.status).toBe(2);
    expect(usage.stderr).toMatch(/--out <dir>/);
  });
});
