import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { concatChunks } from '@cellcloud/formats/sources';
import { zipWriter } from '@cellcloud/formats/write-zip';
import { writeTables, type TableEntry } from '../src/jobs/download.tables';
import { TEST_DB } from './support/harness';

/**
 * Issue 21, the tables zip's workbook rules: sheet names valid, ≤ 31 characters and unique; a
 * table with more rows than a sheet holds is left out of tables.xlsx (its CSV stays) and named in
 * README.txt in the requester's language; an explorer DE result (JSON) becomes the docs/product/entities.md#deg-table CSV.
 * The limit is passed small here (the real one is 1,048,575 rows). No database: runs once.
 */
describe.skipIf(TEST_DB !== 'pglite')('tables zip', () => {
  const enc = new TextEncoder();
  const stored: Record<string, Uint8Array> = {
    'a.csv': enc.encode('gene,score\nCD3D,1.5\nLYZ,-Inf\n'),
    'b.csv': enc.encode('cell,type\nc1,B\nc2,T\nc3,NK\n'),
    'de.json': enc.encode(
      JSON.stringify([
        {
          cluster: 'B',
          gene: 'MS4A1',
          avgExpr: 2,
          log2fc: 3,
          pct1: 0.9,
          pct2: 0.1,
          zscore: 9,
          pval: 1e-9,
          padj: 1e-7,
        },
      ]),
    ),
  };
  const entries: TableEntry[] = [
    {
      path: 'tasks/enrich_1/ora_group1_GO_Biological_Process.csv',
      sheet: 'enrich ora_group1_GO_Biological_Process',
      key: 'a.csv',
      format: 'csv',
    },
    {
      path: 'tasks/enrich_1/ora_group1_GO_Biological_Process_2023.csv',
      sheet: 'enrich ora_group1_GO_Biological_Process_2023',
      key: 'a.csv',
      format: 'csv',
    },
    { path: 'tasks/cnv_1/cells.csv', sheet: 'cnv cells', key: 'b.csv', format: 'csv' },
    { path: 'de/B_vs_rest.csv', sheet: 'DE B vs rest', key: 'de.json', format: 'deg-json' },
  ];

  async function zipOf(lang: 'en-US' | 'zh-CN') {
    const chunks: Uint8Array[] = [];
    const zip = zipWriter((c) => chunks.push(c));
    const r = await writeTables(
      zip,
      entries,
      async (k) => stored[k]!,
      { lang, resultName: 'pbmc' },
      () => {},
      2,
    );
    zip.end();
    return { r, files: unzipSync(concatChunks(chunks)) };
  }

  it('names sheets uniquely within 31 characters, leaves an over-long table out of the workbook with a note', async () => {
    const { r, files } = await zipOf('en-US');
    expect(r.sheets).toEqual([
      'enrich ora_group1_GO_Biological',
      'enrich ora_group1_GO_Biologic~2',
      'DE B vs rest',
    ]);
    expect(strFromU8(files['tasks/cnv_1/cells.csv']!)).toBe('cell,type\nc1,B\nc2,T\nc3,NK\n');
    expect(strFromU8(files['de/B_vs_rest.csv']!).split('\n')[1]).toBe('B,MS4A1,2,3,0.9,0.1,9,1e-9,1e-7');
    const readme = strFromU8(files['README.txt']!);
    expect(readme).toContain('Not in tables.xlsx (3 rows; a sheet holds at most 2): tasks/cnv_1/cells.csv');
    const book = unzipSync(files['tables.xlsx']!);
    const workbook = strFromU8(book['xl/workbook.xml']!);
    expect(workbook).toContain('<sheet name="enrich ora_group1_GO_Biologic~2" sheetId="2" r:id="rId2"/>');
    expect(workbook).not.toContain('cnv cells');
    const sheet1 = strFromU8(book['xl/worksheets/sheet1.xml']!);
    expect(sheet1).toContain('<dimension ref="A1:B3"/>');
    expect(sheet1).toContain('<c r="B2"><v>1.5</v></c>');
    expect(sheet1).toContain('<c r="B3" t="inlineStr"><is><t>-Inf</t></is></c>');
  });

  it('writes the README in Chinese for a zh-CN request', async () => {
    const { files } = await zipOf('zh-CN');
    const readme = strFromU8(files['README.txt']!);
    expect(readme).toMatch(/^结果“pbmc”的表格/);
    expect(readme).toContain('未放入 tables.xlsx（3 行；一个工作表最多 2 行）：tasks/cnv_1/cells.csv');
  });
});
