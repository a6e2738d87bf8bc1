import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '@cellcloud/contracts/api-paths';
import { DOWNLOADS_API, type DownloadKind, type DownloadView } from '@cellcloud/contracts/downloads';
import { MARKER_CSV_HEADER } from '@cellcloud/engine';
import { unzip } from '@cellcloud/formats/archive';
import { createTestServer, type TestServer } from './support/harness';
import { testUser } from './support/jobs';
import { PBMC_H5AD, pbmcAnalysisWithTask } from './support/pbmc-result';

/**
 * Issue 21: the `tables` and `figures` downloads of a real pbmc3k result with a saved DE
 * comparison and a completed cell-score task, through request → admin approval → export job →
 * notification → signed link: the tables zip holds every table as CSV with its documented columns
 * and a tables.xlsx that openpyxl (Debian python3-openpyxl) opens with one sheet per table; the
 * figures zip holds each figure as an SVG that parses and a PNG of twice its size, labels in the
 * requester's language (zh-CN: Chinese).
 */
const xlsxPython = ['/usr/bin/python3', 'python3'].find((py) => {
  try {
    execFileSync(py, ['-c', 'import openpyxl'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
});
if (!xlsxPython)
  console.warn(
    '⚠ tables.xlsx not read back: python3-openpyxl is not installed (apt-get install python3-openpyxl)',
  );

const dec = new TextDecoder();

describe.skipIf(!PBMC_H5AD)('tables and figures downloads of a pbmc3k result', () => {
  let s: TestServer;
  let owner: Awaited<ReturnType<typeof testUser>>;
  let admin: Awaited<ReturnType<typeof testUser>>;
  let result: Awaited<ReturnType<typeof pbmcAnalysisWithTask>>;
  const dir = mkdtempSync(path.join(tmpdir(), 'cellcloud-dl-tf-'));

  /** Requests `kind`, the admin approves, the export job runs; the zip's entries by name. */
  async function exported(kind: DownloadKind, lang: 'en-US' | 'zh-CN') {
    const r = await s.request('POST', DOWNLOADS_API.create, {
      token: owner.token,
      lang,
      body: { datasetId: result.id, kind },
    });
    expect(r.status, r.raw).toBe(200);
    expect(r.body.data.status).toBe('pending');
    const ok = await s.request('POST', DOWNLOADS_API.approve(r.body.data.id), { token: admin.token });
    expect(ok.status, ok.raw).toBe(200);
    let v: DownloadView | undefined;
    for (let i = 0; i < 1200 && v?.exportState !== 'ready'; i++) {
      v = (await s.request('GET', DOWNLOADS_API.one(r.body.data.id), { token: owner.token })).body.data;
      if (v!.exportState === 'failed') throw new Error(`${kind} export failed`);
      if (v!.exportState !== 'ready') await new Promise((res) => setTimeout(res, 250));
    }
    expect(v!.fileName).toBe(`pbmc3k_figures_${kind}.zip`);
    const notes = (await s.request('GET', ROUTES.notifications.base, { token: owner.token })).body.data;
    expect(JSON.stringify(notes)).toContain(v!.fileName);
    const res = await fetch(`${s.url}${v!.url}`);
    expect(res.headers.get('content-type')).toBe('application/zip'); // issue 31: was text/csv
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(v!.fileSize).toBe(bytes.length);
    const files = new Map<string, Uint8Array>();
    for (const e of unzip(bytes, 'x.zip')) files.set(e.name, await e.read(0, e.size));
    return files;
  }

  beforeAll(async () => {
    s = await createTestServer();
    await s.listen();
    owner = await testUser(s);
    admin = await testUser(s);
    await s.ctx.db.query(`UPDATE users SET is_admin = true WHERE id = $1`, [admin.user.id]);
    result = await pbmcAnalysisWithTask(s, owner.user.id, owner.token);
    // a plan without "download free file": each request waits for the administrator
    await s.ctx.db.query(`UPDATE users SET plan_id = 'readonly' WHERE id = $1`, [owner.user.id]);
  }, 300_000);
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await s?.close();
  });

  it('tables: markers, both saved DE results and the task table as CSV with their columns, and a workbook with a sheet each', async () => {
    const files = await exported('tables', 'en-US');
    const names = [...files.keys()].sort();
    const de = names.filter((n) => n.startsWith('de/'));
    const task = names.filter((n) => n.startsWith('tasks/'));
    expect(de).toHaveLength(2);
    expect(task).toEqual([`tasks/cell-score_${result.taskId.slice(0, 8)}/scores.csv`]);
    expect(names).toEqual(expect.arrayContaining(['markers.csv', 'tables.xlsx', 'README.txt']));
    const csv = (n: string) => dec.decode(files.get(n)!).split('\n').filter(Boolean);
    for (const n of ['markers.csv', ...de]) expect(csv(n)[0]).toBe(MARKER_CSV_HEADER.join(','));
    expect(csv('markers.csv')).toHaveLength(result.markerRows + 1);
    expect(csv(task[0]!)[0]).toBe('barcode,T_ModuleScore,T_UCell');
    expect(csv(task[0]!)).toHaveLength(result.nCells + 1);
    const readme = dec.decode(files.get('README.txt')!);
    for (const n of ['markers.csv', ...de, ...task]) expect(readme).toContain(n);

    if (!xlsxPython) return;
    const xlsx = path.join(dir, 'tables.xlsx');
    writeFileSync(xlsx, files.get('tables.xlsx')!);
    const read = String.raw`
import sys, json, openpyxl
wb = openpyxl.load_workbook(sys.argv[1], read_only=True)
print(json.dumps({ws.title: [ws.max_row, [c.value for c in next(ws.iter_rows(max_row=1))]] for ws in wb.worksheets}))`;
    const sheets = JSON.parse(execFileSync(xlsxPython, ['-c', read, xlsx], { encoding: 'utf8' })) as Record<
      string,
      [number, string[]]
    >;
    expect(Object.keys(sheets)).toHaveLength(4);
    for (const name of Object.keys(sheets)) expect(name.length).toBeLessThanOrEqual(31);
    expect(sheets['markers']).toEqual([result.markerRows + 1, [...MARKER_CSV_HEADER]]);
    const scores = Object.entries(sheets).find(([k]) => k.startsWith('cell-score'))!;
    expect(scores[1]).toEqual([result.nCells + 1, ['barcode', 'T_ModuleScore', 'T_UCell']]);
  });

  it('figures: every figure as a parsable SVG and a PNG of twice its size; embeddings, QC, dot plot, composition, volcano and the task figure', async () => {
    const files = await exported('figures', 'en-US');
    const svgs = [...files.keys()].filter((n) => n.endsWith('.svg')).sort();
    const stems = svgs.map((n) => n.slice(0, -4));
    expect(stems).toEqual(
      expect.arrayContaining([
        'embedding/umap_by_cluster',
        'embedding/umap_by_label',
        'qc/n_genes_by_counts_violin',
        'qc/total_counts_violin',
        'qc/pct_counts_mito_violin',
        'markers/dotplot_cluster',
        'composition/cluster_by_sample',
        'composition/label_by_sample',
        `tasks/cell-score_${result.taskId.slice(0, 8)}_T_ModuleScore_by_cluster`,
      ]),
    );
    expect(stems.filter((n) => n.startsWith('de/volcano_'))).toHaveLength(1);
    // every SVG is well-formed XML (python's parser) and renders; its PNG is twice its size
    for (const n of svgs) mkdirSync(path.dirname(path.join(dir, 'fig', n)), { recursive: true });
    for (const n of svgs) writeFileSync(path.join(dir, 'fig', n), files.get(n)!);
    const parse = String.raw`
import sys, json, xml.etree.ElementTree as ET
out = {}
for f in sys.argv[1:]:
    r = ET.parse(f).getroot()
    out[f] = [r.tag, r.get('width'), r.get('height')]
print(json.dumps(out))`;
    const parsed = JSON.parse(
      execFileSync('/usr/bin/python3', ['-c', parse, ...svgs.map((n) => path.join(dir, 'fig', n))], {
        encoding: 'utf8',
      }),
    ) as Record<string, [string, string, string]>;
    for (const n of svgs) {
      const [tag, w, h] = parsed[path.join(dir, 'fig', n)]!;
      expect(tag).toBe('{http://www.w3.org/2000/svg}svg');
      const png = await sharp(files.get(`${n.slice(0, -4)}.png`)!).metadata();
      expect([png.format, png.width, png.height], n).toEqual(['png', 2 * Number(w), 2 * Number(h)]);
    }
    // 2,638 cells: the embedding is vector, one element per cell
    const umap = dec.decode(files.get('embedding/umap_by_cluster.svg')!);
    expect(umap).toContain('UMAP coloured by cluster');
    expect(umap).not.toContain('<image');
    expect(dec.decode(files.get('README.txt')!)).toContain(
      'embedding/umap_by_cluster.svg / .png\t970×730 / 1940×1460',
    );
  });

  it('figures in zh-CN carry Chinese labels', async () => {
    const files = await exported('figures', 'zh-CN');
    const text = (n: string) => dec.decode(files.get(n)!);
    expect(text('embedding/umap_by_cluster.svg')).toContain('UMAP（按 cluster 着色）');
    expect(text('qc/total_counts_violin.svg')).toContain('样本');
    expect(text('markers/dotplot_cluster.svg')).toContain('基因');
    expect(text('composition/label_by_sample.svg')).toContain('细胞比例（%）');
    expect(text('README.txt')).toMatch(/^结果“pbmc3k_figures”的图片/);
  });
});
