import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, SHARED_DATA_DIR, hasSharedData } from '@cellcloud/testkit';
import { csvToTable } from '@cellcloud/engine/tasks/kit';
import { lowestObservedArms } from '../../src/cnv/figures';
import { ANNOT, MATRIX } from './fixtures';

/**
 * Issue 32 from the command line: `cellcloud analyze` accepts the inferCNV oligodendroglioma
 * matrix as it ships (non-integer Smart-seq2 values), picks the plate preset for it (no cell lost to
 * the droplet UMI cap), and `cellcloud task cnv` with the normal cells of its annotation file as
 * references finds the tumour's 1p/19q co-deletion among the lowest arms of the malignant cells.
 */
const BIN = path.join(REPO_ROOT, 'packages/engine/bin/cellcloud.mjs');
const cli = (args: string[]) =>
  spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', cwd: REPO_ROOT, timeout: 300_000 });

describe.skipIf(!hasSharedData(MATRIX, ANNOT))(
  'cellcloud analyze + task cnv on the oligodendroglioma',
  () => {
    let dir: string;
    beforeAll(async () => {
      dir = await mkdtemp(path.join(os.tmpdir(), 'cellcloud-oligo-'));
    });
    afterAll(() => rm(dir, { recursive: true, force: true }));

    it('accepts the non-integer matrix, applies the plate preset and shows 1p/19q losses', async () => {
      const result = path.join(dir, 'result');
      const a = cli([
        'analyze',
        path.join(SHARED_DATA_DIR, MATRIX),
        '--out',
        result,
        '--obs',
        path.join(SHARED_DATA_DIR, ANNOT),
      ]);
      expect(a.status, a.stderr).toBe(0);
      expect(a.stderr).toMatch(/184 cells × 10338 genes \(dense-text, Homo sapiens, nonIntegerCounts\)/);
      expect(a.stderr).toMatch(/plate preset applies/);
      // every well passes the plate filters (1,000–20,000 genes, no count cap, no doublet removal)
      expect(a.stderr).toMatch(/^184 cells after QC/m);

      const params = path.join(dir, 'cnv.json');
      await writeFile(
        params,
        JSON.stringify({
          groupBy: 'column1',
          reference: ['Microglia/Macrophage', 'Oligodendrocytes (non-malignant)'],
        }),
      );
      const out = path.join(dir, 'cnv');
      const t = cli(['task', 'cnv', result, '--out', out, '--params', params]);
      expect(t.status, t.stderr).toBe(0);
      const table = csvToTable(await readFile(path.join(out, 'tables/arm_groups.csv'), 'utf8'));
      const lowest = lowestObservedArms(table, 3).map((x) => x.arm);
      expect(lowest).toContain('1p');
      expect(lowest).toContain('19q');
      const summary = JSON.parse(await readFile(path.join(out, 'summary.json'), 'utf8')) as {
        nObserved: number;
        nReference: number;
      };
      expect([summary.nObserved, summary.nReference]).toEqual([142, 42]);
    }, 300_000);
  },
);
