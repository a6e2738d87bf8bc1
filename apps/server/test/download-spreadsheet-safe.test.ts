import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { readH5adBytes } from '@cellcloud/formats/read-h5ad';
import { concatChunks } from '@cellcloud/formats/sources';
import { zipWriter } from '@cellcloud/formats/write-zip';
import { openpyxlPython, sharedData } from '@cellcloud/testkit';
import { LOAD_SEURAT_R, seuratBundle } from '../src/jobs/download.seurat-bundle';
import { writeTables } from '../src/jobs/download.tables';
import { TEST_DB } from './support/harness';

const python = openpyxlPython();
const hasR = spawnSync('Rscript', ['--version'], { encoding: 'utf8' }).status === 0;
if (!hasR) console.warn('⚠ load_seurat.R unquoting not run: Rscript is not installed');
const h5ad = sharedData('pbmc3k/pbmc3k.h5ad');
const enc = new TextEncoder();

/**
 * Formula neutralisation in the downloads (issue 32, contracts/spreadsheet-safe.ts): the `tables`
 * download quotes formula-like text in its CSV files and its workbook (numbers stay numbers); the
 * Seurat bundle quotes it in metadata.csv and its load_seurat.R gives R the original labels back.
 * No database (runs in the PGlite pass only).
 */
describe.skipIf(TEST_DB !== 'pglite')('spreadsheet-safe downloads', () => {
  it('tables: stored task tables and markers rewritten with quoted formula cells, in CSV and XLSX', async () => {
    const stored: Record<string, string> = {
      'k/markers.csv': 'Cluster,Gene,Log2FC\n=1+1,CD3D,-1.5\n2,@evil,-3e-05\n',
      'k/scores.csv': 'cell,group,score\nAAAC-1,"=HYPERLINK(""http://x"",""y"")",0.25\nAAAG-1,-cmd,-Inf\n',
    };
    const chunks: Uint8Array[] = [];
    const zip = zipWriter((c) => chunks.push(c));
    await writeTables(
      zip,
      [
        { path: 'markers.csv', sheet: 'markers', key: 'k/markers.csv', format: 'csv' },
        { path: 'tasks/scores.csv', sheet: 'scores', key: 'k/scores.csv', format: 'csv' },
      ],
      async (key) => enc.encode(stored[key]!),
      { lang: 'en-US', resultName: 'r' },
    );
    zip.end();
    const files = unzipSync(concatChunks(chunks));
    expect(strFromU8(files['markers.csv']!)).toBe("Cluster,Gene,Log2FC\n'=1+1,CD3D,-1.5\n2,'@evil,-3e-05\n");
    expect(strFromU8(files['tasks/scores.csv']!)).toBe(
      `cell,group,score\nAAAC-1,"'=HYPERLINK(""http://x"",""y"")",0.25\nAAAG-1,'-cmd,-Inf\n`,
    );
    if (!python) return;
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tables-safe-'));
    try {
      writeFileSync(path.join(dir, 't.xlsx'), files['tables.xlsx']!);
      const out = execFileSync(
        python,
        [
          '-c',
          `import sys, json, openpyxl
wb = openpyxl.load_workbook(sys.argv[1])
print(json.dumps({ws.title: [[c.value if c.value == c.value else 'nan' for c in r] for r in ws.iter_rows(min_row=2)] for ws in wb.worksheets}, allow_nan=True))`,
          path.join(dir, 't.xlsx'),
        ],
        { encoding: 'utf8' },
      );
      const sheets = JSON.parse(out) as Record<string, unknown[][]>;
      expect(sheets.markers).toEqual([
        ["'=1+1", 'CD3D', -1.5],
        [2, "'@evil", -3e-5],
      ]);
      expect(sheets.scores).toEqual([
        ['AAAC-1', `'=HYPERLINK("http://x","y")`, 0.25],
        ['AAAG-1', "'-cmd", '-Inf'],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(!h5ad)(
    'Seurat bundle: metadata.csv quoted, load_seurat.R reads the original labels',
    async () => {
      const ds = await readH5adBytes(new Uint8Array(readFileSync(h5ad!)), 'pbmc3k.h5ad');
      const label = ds.cells.columns.label!;
      expect(label.kind).toBe('categorical');
      const rename: Record<string, string> = { NK: '=HYPERLINK("http://x","NK")', B: '-B' };
      label.values = (label.values as string[]).map((v) => rename[v] ?? v);
      const files = unzipSync(seuratBundle(ds));
      const meta = strFromU8(files['metadata.csv']!);
      expect(meta).toContain(`"'=HYPERLINK(""http://x"",""NK"")"`);
      expect(meta).toMatch(/,'-B,|,'-B\n/);
      expect(meta).not.toMatch(/(^|,)=HYPERLINK/m);
      if (!hasR) return;
      // the unquoting lines of the bundled script, run on the bundled metadata.csv (base R only)
      const lines = LOAD_SEURAT_R.split('\n');
      const from = lines.findIndex((l) => l.startsWith('unquote <-'));
      const to = lines.findIndex((l) => l.startsWith('meta[] <-'));
      expect(from).toBeGreaterThan(0);
      const dir = mkdtempSync(path.join(os.tmpdir(), 'seurat-safe-'));
      try {
        writeFileSync(path.join(dir, 'metadata.csv'), files['metadata.csv']!);
        const script = `${lines.slice(from, to + 1).join('\n')}
tab <- table(meta$label)
cat(paste(names(tab), as.integer(tab), sep = "\\t"), sep = "\\n")`;
        const r = spawnSync('Rscript', ['-e', script], { cwd: dir, encoding: 'utf8' });
        expect(r.status, r.stderr).toBe(0);
        const counts = Object.fromEntries(
          r.stdout
            .trim()
            .split('\n')
            .map((l) => l.split('\t')),
        );
        expect(counts['=HYPERLINK("http://x","NK")']).toBe('155');
        expect(counts['-B']).toBe('344');
        expect(counts['CD14+ Mono']).toBe('480');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
