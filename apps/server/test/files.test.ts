import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { zipSync } from 'fflate';
import { FILES_API, type UploadRow } from '@cellcloud/contracts';
import { sharedData } from '@cellcloud/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileFrom, uploadSample, waitParsed, type FileToSend } from './files-helpers';
import { signUp } from './support/accounts';
import { createTestServer, type TestServer } from './support/harness';

/**
 * Every format of ../shared/data uploaded with the real tus client over HTTP, parsed in the
 * background and listed with the right species, cell and gene counts.
 */
const geneLists = sharedData('gene_ids');
const d = (rel: string) => sharedData(rel);
const have = [
  'pbmc3k/10x/matrix.mtx.gz',
  'pbmc3k/pbmc3k.h5ad',
  'scanpy_bundled/10x_v3_small/matrix.mtx.gz',
  'scanpy_bundled/10x_v2_chr21/matrix.mtx',
  'ifnb_kang2018_subset/matrix.mtx.gz',
  'mouse10k_subset_scanpy/matrix.mtx.gz',
].every((p) => d(p) !== undefined);

const triplet = (dir: string, genes: string, gz = true): FileToSend[] => {
  const z = gz ? '.gz' : '';
  return [
    fileFrom(d(`${dir}/matrix.mtx${z}`)!),
    fileFrom(d(`${dir}/${genes}${z}`)!),
    fileFrom(d(`${dir}/barcodes.tsv${z}`)!),
  ];
};

/** A dense genes × cells TSV of 40 barcoded cells written by the test (human symbols). */
function denseTsv(): FileToSend {
  const genes = [
    'CD3D',
    'CD3E',
    'MS4A1',
    'CD79A',
    'LYZ',
    'CST3',
    'NKG7',
    'GNLY',
    'PPBP',
    'FCGR3A',
    'ACTB',
    'MT-CO1',
  ];
  const dna = (n: number) => Array.from({ length: 14 }, (_, k) => 'ACGT'[(n >> (2 * k)) & 3]).join('');
  const cells = Array.from({ length: 40 }, (_, j) => `${dna(j * 2654435761)}-1`);
  const lines = [['gene', ...cells].join('\t')];
  genes.forEach((g, i) => lines.push([g, ...cells.map((_, j) => String((i * 7 + j * 3) % 11))].join('\t')));
  return { name: 'dense_counts.tsv.gz', bytes: new Uint8Array(gzipSync(lines.join('\n') + '\n')) };
}

/** The v3 triplet as one zip archive, optionally under a CeleScope v2 sample folder. */
function zipped(name: string, prefix: string): FileToSend {
  const dir = 'scanpy_bundled/10x_v3_small';
  const entries = Object.fromEntries(
    ['matrix.mtx.gz', 'features.tsv.gz', 'barcodes.tsv.gz'].map((f) => [
      `${prefix}${f}`,
      new Uint8Array(readFileSync(d(`${dir}/${f}`)!)),
    ]),
  );
  return { name, bytes: zipSync(entries) };
}

interface Case {
  name: string;
  files: () => FileToSend[];
  kind?: 'matrix' | 'annotated' | 'celescope';
  format: string;
  species: string;
  cells: number;
  genes: number;
  usable: boolean;
}

const cases: Case[] = [
  {
    name: 'pbmc3k_10x',
    files: () => [
      ...triplet('pbmc3k/10x', 'genes.tsv'),
      fileFrom(d('pbmc3k/pbmc3k_seurat_labels.csv')!, 'labels.csv', 'metadata'),
    ],
    format: '10x-mtx',
    species: 'Homo sapiens',
    cells: 2638,
    genes: 13714,
    usable: true,
  },
  {
    name: 'pbmc3k_h5ad',
    files: () => [fileFrom(d('pbmc3k/pbmc3k.h5ad')!)],
    kind: 'annotated',
    format: 'h5ad',
    species: 'Homo sapiens',
    cells: 2638,
    genes: 13714,
    usable: true,
  },
  {
    name: 'v3_small_mtx',
    files: () => triplet('scanpy_bundled/10x_v3_small', 'features.tsv'),
    format: '10x-mtx',
    species: 'Homo sapiens',
    cells: 1107,
    genes: 507,
    usable: true,
  },
  {
    name: 'v3_small_zip',
    files: () => [zipped('filtered_feature_bc_matrix.zip', '')],
    format: '10x-mtx',
    species: 'Homo sapiens',
    cells: 1107,
    genes: 507,
    usable: true,
  },
  {
    name: 'celescope_project',
    files: () => [zipped('S1_celescope.zip', 'S1/outs/filtered/')],
    kind: 'celescope',
    format: 'celescope',
    species: 'Homo sapiens',
    cells: 1107,
    genes: 507,
    usable: true,
  },
  {
    name: 'v3_small_h5',
    files: () => [fileFrom(d('scanpy_bundled/10x_v3_small/filtered_feature_bc_matrix.h5')!)],
    format: '10x-h5',
    species: 'Homo sapiens',
    cells: 1107,
    genes: 507,
    usable: true,
  },
  {
    name: 'v2_chr21_mtx',
    files: () => triplet('scanpy_bundled/10x_v2_chr21', 'genes.tsv', false),
    format: '10x-mtx',
    species: 'Homo sapiens',
    cells: 12,
    genes: 343,
    usable: false,
  },
  {
    name: 'v2_chr21_h5',
    files: () => [fileFrom(d('scanpy_bundled/10x_v2_chr21/filtered_gene_bc_matrices_h5.h5')!)],
    format: '10x-h5',
    species: 'Homo sapiens',
    cells: 12,
    genes: 343,
    usable: false,
  },
  {
    name: 'ifnb',
    files: () => triplet('ifnb_kang2018_subset', 'genes.tsv'),
    format: '10x-mtx',
    species: 'Homo sapiens',
    cells: 2000,
    genes: 9015,
    usable: true,
  },
  {
    name: 'mouse10k',
    files: () => triplet('mouse10k_subset_scanpy', 'features.tsv'),
    format: '10x-mtx',
    species: 'Mus musculus',
    cells: 10000,
    genes: 1000,
    usable: true,
  },
  {
    name: 'dense_tsv',
    files: () => [denseTsv()],
    format: 'dense-text',
    species: 'Homo sapiens',
    cells: 40,
    genes: 12,
    usable: true,
  },
];

describe.skipIf(!have || !geneLists)('files: every shared format reaches Completed', () => {
  let s: TestServer;
  let token: string;
  const rows = new Map<string, UploadRow>();

  beforeAll(async () => {
    process.env.ENSEMBL_GENE_LISTS_DIR = geneLists;
    s = await createTestServer();
    await s.listen();
    token = (await signUp(s)).token;
    for (const c of cases) {
      const row = await uploadSample(s, token, c.name, c.files(), c.kind);
      rows.set(c.name, await waitParsed(s, token, row.id));
    }
  });
  afterAll(() => s?.close());

  it.each(cases)('$name → completed, $species, $cells cells × $genes genes', (c) => {
    const row = rows.get(c.name)!;
    expect(row.failure).toBeNull();
    expect(row.state).toBe('completed');
    expect(row.format).toBe(c.format);
    expect(row.properties?.species).toBe(c.species);
    expect(row.properties?.cells).toBe(c.cells);
    expect(row.properties?.genes).toBe(c.genes);
    expect(row.properties?.usable).toBe(c.usable);
    expect(row.properties?.overlapPercent).toBeGreaterThan(50);
    expect(row.properties?.ensemblRelease).toBe(c.species === 'Mus musculus' ? 93 : 110);
  });

  it('pbmc3k UMI summary matches the data README (6,254,880 UMIs)', () => {
    expect(rows.get('pbmc3k_10x')!.properties!.umi.total).toBe(6_254_880);
    expect(rows.get('pbmc3k_h5ad')!.properties!.umi.total).toBe(6_254_880);
  });

  it('stores the canonical h5ad and a manifest with shape, species and hash', async () => {
    const id = rows.get('ifnb')!.id;
    const manifest = JSON.parse(
      Buffer.from(await s.ctx.storage.getBytes(`datasets/${id}/manifest.json`)).toString('utf8'),
    );
    expect(manifest.shape).toMatchObject({ cells: 2000, genes: 9015 });
    expect(manifest.species).toBe('Homo sapiens');
    expect(manifest.contentSha256).toMatch(/^[0-9a-f]{64}$/);
    expect((await s.ctx.storage.stat(`datasets/${id}/counts.h5ad`))?.size).toBeGreaterThan(1000);
    const pbmc = rows.get('pbmc3k_10x')!;
    const withMeta = JSON.parse(
      Buffer.from(await s.ctx.storage.getBytes(`datasets/${pbmc.id}/manifest.json`)).toString('utf8'),
    );
    expect(withMeta.metadataFiles).toEqual([{ name: 'labels.csv', key: `raw/${pbmc.id}/3` }]);
    expect(pbmc.files.map((f) => f.role)).toEqual(['data', 'data', 'data', 'metadata']);
  });

  it('unusable sample carries the SPEC cell-limit message key', () => {
    expect(rows.get('v2_chr21_mtx')!.properties!.unusableReasonKey).toBe('files.unusable.cells');
  });

  it('lists with search, sort by fileName and paging', async () => {
    const all = await s.request('GET', `${FILES_API.uploads}?sortBy=fileName&order=asc&pageSize=100`, {
      token,
    });
    expect(all.body.data.total).toBe(cases.length);
    const names = (all.body.data.rows as UploadRow[]).map((r) => r.fileName);
    expect(names).toEqual([...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
    const page2 = await s.request(
      'GET',
      `${FILES_API.uploads}?sortBy=fileName&order=asc&pageSize=4&pageNum=2`,
      { token },
    );
    expect(page2.body.data.total).toBe(cases.length);
    expect((page2.body.data.rows as UploadRow[]).map((r) => r.fileName)).toEqual(names.slice(4, 8));
    const found = await s.request('GET', `${FILES_API.uploads}?search=v3_small`, { token });
    expect((found.body.data.rows as UploadRow[]).map((r) => r.fileName).sort()).toEqual([
      'v3_small_h5',
      'v3_small_mtx',
      'v3_small_zip',
    ]);
    const byFile = await s.request('GET', `${FILES_API.uploads}?search=S1_celescope`, { token });
    expect((byFile.body.data.rows as UploadRow[]).map((r) => r.fileName)).toEqual(['celescope_project']);
    const byDate = await s.request('GET', `${FILES_API.uploads}?sortBy=uploadedOn&order=asc&pageSize=100`, {
      token,
    });
    expect((byDate.body.data.rows as UploadRow[])[0]!.fileName).toBe('pbmc3k_10x');
  });

  it('renames (unique per user, SPEC name rule) and deletes, freeing space', async () => {
    const id = rows.get('dense_tsv')!.id;
    const taken = await s.request('PUT', FILES_API.upload(id), { token, body: { sampleName: 'ifnb' } });
    expect(taken.status).toBe(409);
    expect(taken.body.msg).toBe('name exists, please type another');
    const bad = await s.request('PUT', FILES_API.upload(id), { token, body: { sampleName: '1sample' } });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toMatch(/start with a letter or underscore/);
    const okRename = await s.request('PUT', FILES_API.upload(id), {
      token,
      body: { sampleName: 'dense sample.v2' },
    });
    expect(okRename.body.data.fileName).toBe('dense sample.v2');
    const before = (await s.request('GET', FILES_API.usage, { token })).body.data.usedBytes as number;
    expect((await s.request('DELETE', FILES_API.upload(id), { token })).status).toBe(200);
    const after = (await s.request('GET', FILES_API.usage, { token })).body.data.usedBytes as number;
    expect(after).toBeLessThan(before);
    expect(await s.ctx.storage.list(`raw/${id}`)).toEqual([]);
    expect(await s.ctx.storage.list(`datasets/${id}`)).toEqual([]);
    expect((await s.request('GET', FILES_API.upload(id), { token })).status).toBe(404);
  });

  it('file properties endpoint and zh-CN failure/labels', async () => {
    const r = await s.request('GET', FILES_API.properties(rows.get('mouse10k')!.id), { token });
    expect(r.body.data).toMatchObject({
      species: 'Mus musculus',
      cells: 10000,
      genes: 1000,
      ensemblReference: 'mm10-3.0.0',
    });
  });
});
