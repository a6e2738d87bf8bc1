import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { taskOutputs } from '@cellcloud/contracts/tasks/define';
import { REPO_ROOT, sharedData } from '@cellcloud/testkit';
import { parseObsFile } from '@cellcloud/engine/cli/kit';
import { csvToTable } from '@cellcloud/engine/tasks/kit';
import { parseTaskArgs } from '../src/_cli/task-args';

const BIN = path.join(REPO_ROOT, 'packages/engine/bin/cellcloud.mjs');
const H5AD = sharedData('pbmc3k/pbmc3k.h5ad');
const LABELS = sharedData('pbmc3k/pbmc3k_seurat_labels.csv');

function cli(args: string[]) {
  return spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', cwd: REPO_ROOT, timeout: 300_000 });
}

describe('cellcloud task arguments and --obs files', () => {
  it('maps flags onto params (camelCase) and keeps --groupby/--obs/--params apart', () => {
    expect(
      parseTaskArgs([
        'cell-score',
        'r',
        '--out',
        'o',
        '--groupby',
        'label',
        '--obs',
        'a.csv',
        '--gene-set',
        'g.csv',
        '--n-bins=12',
      ]),
    ).toEqual({
      task: 'cell-score',
      input: 'r',
      out: 'o',
      params: undefined,
      groupBy: 'label',
      obs: ['a.csv'],
      quiet: false,
      flags: { geneSet: 'g.csv', nBins: '12' },
    });
    expect(() => parseTaskArgs(['cell-score', 'r'])).toThrow(/--out/);
  });

  it('reads per-cell columns with or without a header, comma or tab, and reports unmatched barcodes', () => {
    const barcodes = ['AAAC-1', 'AAAG-1', 'AAAT-1'];
    const withHeader = parseObsFile('barcode,type,score\nAAAC-1,T,1.5\nAAAT-1,B,2\nGGGG-1,NK,3\n', barcodes);
    expect(withHeader.columns.type).toEqual({ kind: 'categorical', values: ['T', 'NA', 'B'] });
    expect(Array.from(withHeader.columns.score!.values as Float64Array)).toEqual([1.5, NaN, 2]);
    expect(withHeader.matched).toBe(2);
    expect(withHeader.unmatched).toEqual(['GGGG-1']);
    const noHeader = parseObsFile('AAAG-1\tT\nAAAC\tB\n', barcodes);
    expect(noHeader.columns.column1).toEqual({ kind: 'categorical', values: ['B', 'T', 'NA'] });
  });
});

describe.skipIf(!H5AD || !LABELS)('cellcloud task cell-score on pbmc3k', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'cellcloud-task-cli-'));
    await writeFile(path.join(dir, 'tcell.csv'), 'CD3D\nCD3E\nCD2\nIL7R\nLCK\n');
    await writeFile(path.join(dir, 'bad.csv'), 'gene,weight\nCD3D,1\n');
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('writes the per-cell table, obs columns and outputs.json; T cells score highest', async () => {
    const out = path.join(dir, 'out');
    const r = cli([
      'task',
      'cell-score',
      H5AD!,
      '--out',
      out,
      '--gene-set',
      path.join(dir, 'tcell.csv'),
      '--obs',
      LABELS!,
      '--name',
      'T',
    ]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/2638 of 2638 cells matched/);
    const outputs = taskOutputs.parse(JSON.parse(await readFile(path.join(out, 'outputs.json'), 'utf8')));
    expect(outputs.obs.map((o) => o.key)).toEqual(['T_ModuleScore', 'T_UCell']);
    const table = csvToTable(await readFile(path.join(out, 'tables/scores.csv'), 'utf8'));
    expect(table.columns).toEqual(['barcode', 'T_ModuleScore', 'T_UCell']);
    const labels = new Map(
      (await readFile(LABELS!, 'utf8'))
        .trim()
        .split('\n')
        .slice(1)
        .map((l) => l.split(',') as [string, string]),
    );
    const sums = new Map<string, [number, number]>();
    for (const [b, score] of table.rows) {
      const l = labels.get(String(b))!;
      const s = sums.get(l) ?? [0, 0];
      sums.set(l, [s[0] + Number(score), s[1] + 1]);
    }
    const best = [...sums].sort((a, b) => b[1][0] / b[1][1] - a[1][0] / a[1][1])[0]![0];
    expect(best).toMatch(/ T$/);
  });

  it('refuses a malformed gene set file with its message and exit code 1; unknown tasks are usage errors', () => {
    const bad = cli([
      'task',
      'cell-score',
      H5AD!,
      '--out',
      path.join(dir, 'bad'),
      '--gene-set',
      path.join(dir, 'bad.csv'),
      '--quiet',
    ]);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/task\.common\.geneSetFile.*one gene per line, no header/);
    const unknown = cli(['task', 'no-such-task', H5AD!, '--out', path.join(dir, 'x')]);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/Unknown task "no-such-task".*cell-score/);
  });
});
