/**
 * Child of `npm run bench:fuzz` (heap capped by the parent): builds the seed inputs once, then for
 * each request `{ format, i }` derives mutation i of the format's seed deterministically, runs the
 * reader and answers `clean` (FormatError / TaskError), `accepted` or `crash` (any other error).
 * It exits when its RSS passes the cap (the parent counts over-memory).
 */
import { readFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { zipSync } from 'fflate';
import { bytesSource, isFormatError, readDataset, writeH5ad, type SourceBundle } from '@cellcloud/formats';
import { sharedData } from '@cellcloud/testkit';
import { parseContigs } from '../../packages/tasks/src/vdj/engine/contigs';

export const FORMATS = [
  'mtx',
  '10x-h5',
  'h5ad',
  'dense-text',
  'celescope',
  'zip',
  'tar.gz',
  'contig-csv',
] as const;
export type FuzzFormat = (typeof FORMATS)[number];

const RSS_CAP = Number(process.env.FUZZ_RSS_MB ?? 1536) * 1024 * 1024;
const enc = new TextEncoder();
const dec = new TextDecoder();
const file = (rel: string) => new Uint8Array(readFileSync(sharedData(rel)!));

function makeTar(files: Record<string, Uint8Array>): Uint8Array {
  const blocks: Uint8Array[] = [];
  for (const [name, data] of Object.entries(files)) {
    const h = new Uint8Array(512);
    h.set(enc.encode(name).subarray(0, 100), 0);
    h.set(enc.encode('0000644\0'), 100);
    h.set(enc.encode(data.length.toString(8).padStart(11, '0') + '\0'), 124);
    h[156] = 48;
    h.set(enc.encode('ustar\u000000'), 257);
    h.fill(32, 148, 156);
    let sum = 0;
    for (const b of h) sum += b;
    h.set(enc.encode(sum.toString(8).padStart(6, '0') + '\0 '), 148);
    blocks.push(
      h,
      new Uint8Array(Math.ceil(data.length / 512) * 512).fill(0).map((_, k) => data[k] ?? 0),
    );
  }
  blocks.push(new Uint8Array(1024));
  return Buffer.concat(blocks);
}

type Rng = () => number;
const rng = (seed: number): Rng => {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 2 ** 32;
  };
};
const pick = <T>(r: Rng, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;

const NASTY_NUMBERS = [
  '1e300',
  '-1',
  'NaN',
  'Infinity',
  '0x10',
  '99999999999999999999999',
  '',
  '1.5',
  '-0',
  '4294967296',
  '2147483648',
  '1e-400',
  '0',
  '9'.repeat(400),
];

/** Byte-level mutations: bit flips, random spans, truncation, duplication, huge size-like integers. */
function mutateBytes(b: Uint8Array, r: Rng): Uint8Array {
  const out = Uint8Array.from(b);
  const n = 1 + Math.floor(r() * 4);
  let cur: Uint8Array = out;
  for (let k = 0; k < n; k++) {
    const op = Math.floor(r() * 6);
    const at = Math.floor(r() * Math.max(1, cur.length));
    if (op === 0) cur[at] = (cur[at] ?? 0) ^ (1 << Math.floor(r() * 8));
    else if (op === 1)
      for (let q = 0; q < 1 + r() * 16 && at + q < cur.length; q++) cur[at + q] = Math.floor(r() * 256);
    else if (op === 2) cur = cur.subarray(0, at);
    else if (op === 3) {
      const len = Math.floor(r() * 256);
      cur = Buffer.concat([cur.subarray(0, at), cur.subarray(at, at + len), cur.subarray(at)]);
    } else if (op === 4) {
      const a = at & ~3;
      if (a + 8 <= cur.length)
        new DataView(cur.buffer, cur.byteOffset).setUint32(
          a,
          pick(r, [0xffffffff, 0x7fffffff, 0x80000000, 1 << 30]),
          r() < 0.5,
        );
    } else cur[at] = pick(r, [0, 0xff, 0x7f, 0x80]);
  }
  return cur;
}

/** Text-level mutations: nasty numbers, dropped/duplicated lines, control bytes, huge header counts. */
function mutateText(text: string, r: Rng): Uint8Array {
  const lines = text.split('\n');
  const n = 1 + Math.floor(r() * 3);
  for (let k = 0; k < n; k++) {
    if (lines.length === 0) lines.push('');
    const i = Math.floor(r() * lines.length);
    const op = Math.floor(r() * 7);
    if (op <= 1) {
      const toks = lines[i]!.split(/([\t ,])/);
      const nums = toks.map((t, q) => (/^-?\d/.test(t) ? q : -1)).filter((q) => q >= 0);
      if (nums.length) toks[pick(r, nums)] = pick(r, NASTY_NUMBERS);
      lines[i] = toks.join('');
    } else if (op === 2) lines.splice(i, 1);
    else if (op === 3) lines.splice(i, 0, lines[i] ?? '');
    else if (op === 4)
      lines[i] = lines[i]! + pick(r, ['\0', '\r', '\t', '\uFFFD', '\ud800', '"', ',', ' 1 1']);
    else if (op === 5) {
      const h = lines.findIndex((l) => /^\d+\s+\d+\s+\d+\s*$/.test(l));
      if (h >= 0)
        lines[h] = lines[h]!.split(/\s+/)
          .map((x) => (r() < 0.5 ? pick(r, ['900000000', '0', '4294967295', '1e9']) : x))
          .join(' ');
    } else lines.length = Math.max(1, Math.floor(r() * lines.length));
  }
  const bytes = enc.encode(lines.join('\n'));
  return r() < 0.1 ? mutateBytes(bytes, r) : bytes;
}

const maybeGz = (b: Uint8Array, r: Rng) => (r() < 0.5 ? new Uint8Array(gzipSync(b)) : b);

interface Seeds {
  triplet: { matrix: string; features: string; barcodes: string };
  h5: Uint8Array;
  h5ad: Uint8Array;
  dense: string;
  contigs: string;
}

async function buildSeeds(): Promise<Seeds> {
  const dir = 'scanpy_bundled/10x_v2_chr21';
  const triplet = {
    matrix: dec.decode(file(`${dir}/matrix.mtx`)),
    features: dec.decode(file(`${dir}/genes.tsv`)),
    barcodes: dec.decode(file(`${dir}/barcodes.tsv`)),
  };
  const h5 = file(`${dir}/filtered_gene_bc_matrices_h5.h5`);
  const ds = await readDataset({ name: 's', entries: [bytesSource('x.h5', h5)] });
  const groups = ds.cells.barcodes.map((_, j) => (j % 3 === 0 ? 'T' : j % 3 === 1 ? 'B' : 'NK'));
  const h5ad = await writeH5ad({
    counts: ds.counts,
    genes: ds.genes,
    barcodes: ds.cells.barcodes,
    obs: { group: { kind: 'categorical', values: groups } },
    obsm: {},
  });
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
  const cells = Array.from(
    { length: 40 },
    (_, j) =>
      `${j
        .toString(4)
        .padStart(14, '0')
        .replace(/[0-3]/g, (d) => 'ACGT'[Number(d)]!)}-1`,
  );
  const dense =
    [
      ['gene', ...cells].join('\t'),
      ...genes.map((g, i) => [g, ...cells.map((_, j) => String((i * 7 + j * 3) % 11))].join('\t')),
    ].join('\n') + '\n';
  const contigs =
    dec
      .decode(gunzipSync(file('vdj_10x/vdj_nextgem_hs_pbmc3_t_filtered_contig_annotations.csv.gz')))
      .split('\n')
      .slice(0, 200)
      .join('\n') + '\n';
  return { triplet, h5, h5ad, dense, contigs };
}

/** Mutation i of a format's seed, as the bundle (or contig bytes) the reader gets. */
function input(seeds: Seeds, format: FuzzFormat, i: number): SourceBundle | Uint8Array {
  const r = rng(i * 7919 + FORMATS.indexOf(format) * 104729 + 1);
  const t = seeds.triplet;
  const tripletFiles = (): Record<string, Uint8Array> => {
    const which = r() < 0.7 ? 'matrix' : pick(r, ['features', 'barcodes'] as const);
    const raw = {
      matrix: enc.encode(t.matrix),
      features: enc.encode(t.features),
      barcodes: enc.encode(t.barcodes),
    };
    raw[which] = mutateText(t[which], r);
    return { 'matrix.mtx': raw.matrix, 'genes.tsv': raw.features, 'barcodes.tsv': raw.barcodes };
  };
  const bundle = (files: Record<string, Uint8Array>): SourceBundle => ({
    name: 'fuzz',
    entries: Object.entries(files).map(([n, b]) => bytesSource(n, b)),
  });
  switch (format) {
    case 'mtx': {
      const f = tripletFiles();
      if (r() < 0.5)
        return bundle(
          Object.fromEntries(
            Object.entries(f).map(([n, b]) => [
              `${n}.gz`,
              r() < 0.2 ? mutateBytes(gzipSync(b), r) : new Uint8Array(gzipSync(b)),
            ]),
          ),
        );
      return bundle(f);
    }
    case '10x-h5':
      return bundle({ 'sample.h5': mutateBytes(seeds.h5, r) });
    case 'h5ad':
      return bundle({ 'sample.h5ad': mutateBytes(seeds.h5ad, r) });
    case 'dense-text': {
      const b = mutateText(seeds.dense, r);
      return bundle(
        r() < 0.5
          ? { 'counts.tsv.gz': r() < 0.2 ? mutateBytes(gzipSync(b), r) : new Uint8Array(gzipSync(b)) }
          : { 'counts.tsv': b },
      );
    }
    case 'celescope': {
      const f = tripletFiles();
      const z = zipSync(
        Object.fromEntries(
          Object.entries(f).map(([n, b]) => [
            `S1/outs/filtered/${n.replace('genes', 'features')}.gz`,
            new Uint8Array(gzipSync(b)),
          ]),
        ),
      );
      return bundle({ 'S1.zip': r() < 0.5 ? mutateBytes(z, r) : z });
    }
    case 'zip': {
      const z = zipSync(
        r() < 0.5
          ? tripletFiles()
          : {
              'matrix.mtx': enc.encode(t.matrix),
              'genes.tsv': enc.encode(t.features),
              'barcodes.tsv': enc.encode(t.barcodes),
            },
      );
      return bundle({ 'sample.zip': r() < 0.6 ? mutateBytes(z, r) : z });
    }
    case 'tar.gz': {
      const tar = makeTar(
        r() < 0.5
          ? tripletFiles()
          : {
              'matrix.mtx': enc.encode(t.matrix),
              'genes.tsv': enc.encode(t.features),
              'barcodes.tsv': enc.encode(t.barcodes),
            },
      );
      const gz = new Uint8Array(gzipSync(r() < 0.5 ? mutateBytes(tar, r) : tar));
      return bundle({ 'sample.tar.gz': r() < 0.3 ? mutateBytes(gz, r) : gz });
    }
    case 'contig-csv':
      return maybeGz(mutateText(seeds.contigs, r), r);
  }
}

async function run(
  seeds: Seeds,
  format: FuzzFormat,
  i: number,
): Promise<'clean' | 'accepted' | 'crash' | 'skipped'> {
  let x: SourceBundle | Uint8Array;
  try {
    x = input(seeds, format, i);
  } catch (e) {
    // a fault of the mutator, not of a reader: reported, never counted as a reader crash
    console.error(`[mutator] ${format} #${i}: ${(e as Error)?.message}`);
    return 'skipped';
  }
  try {
    if (x instanceof Uint8Array) {
      const bytes =
        x[0] === 0x1f && x[1] === 0x8b
          ? (() => {
              try {
                return new Uint8Array(gunzipSync(x));
              } catch {
                throw Object.assign(new Error('gzip'), { name: 'TaskError' });
              }
            })()
          : x;
      parseContigs(bytes, 'contigs.csv');
    } else await readDataset(x, { nonIntegerFormats: ['dense-text'] });
    return 'accepted';
  } catch (e) {
    if (isFormatError(e) || (e as Error)?.name === 'TaskError') return 'clean';
    if (process.env.FUZZ_VERBOSE) console.error(`[crash] ${format} #${i}: ${(e as Error)?.stack ?? e}`);
    return 'crash';
  }
}

const seeds = await buildSeeds();
process.on('message', (m: { format: FuzzFormat; i: number }) => {
  void run(seeds, m.format, m.i).then((kind) => {
    const rss = process.memoryUsage().rss;
    process.send?.({ i: m.i, kind: rss > RSS_CAP ? 'over-memory' : kind, rss });
    if (rss > RSS_CAP) process.exit(3);
  });
});
process.send?.({ ready: true });
process.on('disconnect', () => process.exit(0));
