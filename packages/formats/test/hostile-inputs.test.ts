import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { sharedData } from '@cellcloud/testkit';
import { zipSync } from 'fflate';
import { afterEach, describe, expect, it } from 'vitest';
import {
  bytesSource,
  isFormatError,
  readDataset,
  readLimits,
  setReadLimits,
  writeH5ad,
  type SourceBundle,
} from '../src/index';
import { expectCode } from './errors';
import { smallDataset } from './fixtures';

/**
 * Issue 12: hostile and careless inputs (non-finite / out-of-range values, hex numbers, empty
 * matrices, decompression bombs, lying declared sizes, bad zip CRCs, two matrices, damaged HDF5)
 * must end in a FormatError naming the file and line/field — never a crash, a hang or an
 * allocation of what a header declares.
 */
const enc = new TextEncoder();
const bundle = (files: Record<string, Uint8Array | string>): SourceBundle => ({
  name: 'sample',
  entries: Object.entries(files).map(([n, b]) => bytesSource(n, typeof b === 'string' ? enc.encode(b) : b)),
});
const barcodes = (n: number) =>
  Array.from({ length: n }, (_, j) => `${'ACGT'[j % 4]!.repeat(15)}${'ACGT'[(j >> 2) % 4]}-1`).join('\n') +
  '\n';
const features = (n: number) =>
  Array.from({ length: n }, (_, g) => `ENSG0000000${1000 + g}\tGENE${g}\tGene Expression`).join('\n') + '\n';
const mtx = (rows: number, cols: number, lines: string[], declared = lines.length) =>
  `%%MatrixMarket matrix coordinate integer general\n%\n${rows} ${cols} ${declared}\n${lines.join('\n')}\n`;
const triplet = (m: string, genes = 3, cells = 4) =>
  bundle({ 'matrix.mtx': m, 'features.tsv': features(genes), 'barcodes.tsv': barcodes(cells) });

afterEach(() => setReadLimits({}));

describe('non-finite, negative and malformed values', () => {
  it('MTX: 1e300 (Infinity as float32), 1e39, Infinity, NaN, 0x10 and -1 are refused with the line', async () => {
    for (const [v, code] of [
      ['1e300', 'counts.not_finite'],
      ['1e39', 'counts.not_finite'],
      ['Infinity', 'mtx.bad_entry'],
      ['NaN', 'mtx.bad_entry'],
      ['0x10', 'mtx.bad_entry'],
      ['1_000', 'mtx.bad_entry'],
      ['-1', 'counts.negative'],
    ] as const) {
      const e = await expectCode(readDataset(triplet(mtx(3, 4, ['1 1 2', `2 3 ${v}`]))), code);
      expect(e.message, v).toMatch(/line 5/);
    }
  });

  it('dense text: non-finite / hex / negative refused naming line and column; non-integer accepted and flagged', async () => {
    const table = (v: string) => `gene\tc1\tc2\nCD3D\t1\t2\nCD3E\t3\t${v}\n`;
    for (const [v, code] of [
      ['1e300', 'counts.not_finite'],
      ['Infinity', 'text.bad_value'],
      ['-Infinity', 'text.bad_value'],
      ['0x10', 'text.bad_value'],
      ['-2', 'counts.negative'],
    ] as const) {
      const e = await expectCode(
        readDataset(bundle({ 'counts.tsv': table(v) }), { allowNonInteger: true }),
        code,
      );
      expect(e.message, v).toMatch(/line 3/);
      expect(e.message, v).toMatch(/column 3/);
    }
    const ok = await readDataset(bundle({ 'counts.tsv': table('2.5') }), { allowNonInteger: true });
    expect(ok.nonInteger).toBe(true);
    const ints = await readDataset(bundle({ 'counts.tsv': table('7') }), { allowNonInteger: true });
    expect(ints.nonInteger).toBe(false);
  });

  it('0 × 0 and 0-cell matrices are refused', async () => {
    await expectCode(
      readDataset(bundle({ 'matrix.mtx': mtx(0, 0, [], 0), 'features.tsv': '', 'barcodes.tsv': '' })),
      'matrix.empty',
    );
    await expectCode(
      readDataset(
        bundle({ 'matrix.mtx': mtx(3, 0, [], 0), 'features.tsv': features(3), 'barcodes.tsv': '' }),
      ),
      'matrix.empty',
    );
    await expectCode(readDataset(bundle({ 'counts.tsv': 'gene\n' })), 'text.empty');
  });

  it('a folder with two matrices (neither filtered vs raw) is refused, not silently half-read', async () => {
    const one = mtx(3, 4, ['1 1 2']);
    await expectCode(
      readDataset(
        bundle({
          'a/matrix.mtx': one,
          'a/features.tsv': features(3),
          'a/barcodes.tsv': barcodes(4),
          'b/matrix.mtx': one,
          'b/features.tsv': features(3),
          'b/barcodes.tsv': barcodes(4),
        }),
      ),
      'source.ambiguous',
    );
    // The 10x outs layout (filtered + raw) still reads the filtered one.
    const ds = await readDataset(
      bundle({
        'filtered_feature_bc_matrix/matrix.mtx': one,
        'filtered_feature_bc_matrix/features.tsv': features(3),
        'filtered_feature_bc_matrix/barcodes.tsv': barcodes(4),
        'raw_feature_bc_matrix/matrix.mtx': one,
        'raw_feature_bc_matrix/features.tsv': features(3),
        'raw_feature_bc_matrix/barcodes.tsv': barcodes(4),
      }),
    );
    expect(ds.counts.nCells).toBe(4);
  });

  it('a zip entry with a bad CRC is refused', async () => {
    const z = zipSync(
      {
        'matrix.mtx': enc.encode(mtx(3, 4, ['1 1 2', '2 3 5'])),
        'features.tsv': enc.encode(features(3)),
        'barcodes.tsv': enc.encode(barcodes(4)),
      },
      { level: 0 },
    );
    // Flip one byte of the stored (level 0) matrix data: "2 3 5" → "2 3 6".
    const at = Buffer.from(z).indexOf('2 3 5');
    expect(at).toBeGreaterThan(0);
    const bad = Uint8Array.from(z);
    bad[at + 4] = '6'.charCodeAt(0);
    await expectCode(readDataset(bundle({ 'x.zip': bad })), 'archive.corrupt');
  });

  it('out-of-range categorical codes in an h5ad are refused', async () => {
    const d = smallDataset(10, 6);
    const good = await writeH5ad({
      counts: d.counts,
      genes: d.genes,
      barcodes: d.cells.barcodes,
      obs: { group: { kind: 'categorical', values: ['a', 'b', 'a', 'b', 'a', 'b'] } },
    });
    // Rewrite the codes with h5wasm: one code (7) outside the 2 categories.
    const h5 = (await import('h5wasm')).default;
    const { FS } = await h5.ready;
    FS!.writeFile('/cat-test.h5ad', good);
    const f = new h5.File('/cat-test.h5ad', 'a');
    const codes = f.get('obs/group/codes') as InstanceType<typeof h5.Dataset>;
    const values = Int8Array.from(codes.value as ArrayLike<number>);
    values[2] = 7;
    codes.write_slice([[0, values.length]], values);
    f.close();
    const bytes = Uint8Array.from(FS!.readFile('/cat-test.h5ad'));
    FS!.unlink('/cat-test.h5ad');
    await expectCode(readDataset(bundle({ 'x.h5ad': bytes })), 'h5.bad_field');
  });
});

describe('decompression bombs and declared sizes', () => {
  it('an MTX header declaring far more entries than the compressed file can hold is refused before allocating', async () => {
    const m = gzipSync(enc.encode(mtx(30000, 30000, ['1 1 1'], 900_000_000)));
    const before = process.memoryUsage().arrayBuffers;
    const e = await expectCode(
      readDataset(
        bundle({ 'matrix.mtx.gz': m, 'features.tsv': features(30000), 'barcodes.tsv': barcodes(30000) }),
      ),
      'limits.declared_too_large',
    );
    expect(e.message).toMatch(/900000000/);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(200 * 1024 * 1024);
  });

  it('a declared size above the configured maximum is refused even when the file is big enough', async () => {
    setReadLimits({ maxEntries: 10 });
    await expectCode(
      readDataset(
        triplet(
          mtx(
            3,
            4,
            Array.from({ length: 11 }, (_, k) => `${1 + (k % 3)} ${1 + (k % 4)} 1`),
          ),
        ),
      ),
      'limits.declared_too_large',
    );
  });

  it('gzip (barcodes, dense text, tar.gz) expanding beyond the ratio or the byte cap is stopped', async () => {
    setReadLimits({
      maxDecompressedBytes: 8 * 1024 * 1024,
      maxExpansionRatio: 50,
      minDecompressedAllowance: 1024 * 1024,
    });
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, 'AAAAAAAAAAAAAAA-1\n'));
    expect(bomb.length).toBeLessThan(200 * 1024);
    await expectCode(
      readDataset(
        bundle({ 'matrix.mtx': mtx(3, 4, ['1 1 1']), 'features.tsv': features(3), 'barcodes.tsv.gz': bomb }),
      ),
      'limits.decompressed_too_large',
    );
    const dense = gzipSync(
      Buffer.concat([Buffer.from('gene\tc1\n'), Buffer.alloc(64 * 1024 * 1024, 'G\t0\n')]),
    );
    await expectCode(readDataset(bundle({ 'counts.tsv.gz': dense })), 'limits.decompressed_too_large');
    expect(readLimits().maxExpansionRatio).toBe(50);
  });

  it('a zip entry whose declared size is a bomb is refused before inflating', async () => {
    setReadLimits({
      maxDecompressedBytes: 8 * 1024 * 1024,
      maxExpansionRatio: 50,
      minDecompressedAllowance: 1024 * 1024,
    });
    const z = zipSync(
      {
        'matrix.mtx': enc.encode(mtx(3, 4, ['1 1 1'])),
        'features.tsv': enc.encode(features(3)),
        'barcodes.tsv': new Uint8Array(32 * 1024 * 1024).fill(65),
      },
      { level: 9 },
    );
    await expectCode(readDataset(bundle({ 'x.zip': z })), 'limits.decompressed_too_large');
  });
});

describe('damaged HDF5', () => {
  const h5 = sharedData('scanpy_bundled/10x_v3_small/filtered_feature_bc_matrix.h5');
  it.skipIf(!h5)(
    'truncated, garbage and bit-flipped HDF5 / h5ad end in format errors, never raw crashes',
    async () => {
      const bytes = new Uint8Array(readFileSync(h5!));
      const sig = bytes.subarray(0, 8);
      const variants: Uint8Array[] = [
        bytes.subarray(0, 4096),
        bytes.subarray(0, Math.floor(bytes.length / 2)),
        Uint8Array.from([...sig, ...new Uint8Array(5000).map((_, k) => (k * 7919) % 251)]),
      ];
      let seed = 12345;
      const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
      for (let v = 0; v < 12; v++) {
        const b = Uint8Array.from(bytes);
        for (let k = 0; k < 40; k++) b[8 + Math.floor(rand() * (b.length - 8))] = Math.floor(rand() * 256);
        variants.push(b);
      }
      let errors = 0;
      for (const [i, b] of variants.entries()) {
        for (const name of ['x.h5', 'x.h5ad']) {
          try {
            await readDataset(bundle({ [name]: b }));
          } catch (e) {
            errors++;
            expect(isFormatError(e), `variant ${i} ${name}: ${String(e)}`).toBe(true);
          }
        }
      }
      expect(errors).toBeGreaterThanOrEqual(6);
      const trunc = await readDataset(bundle({ 'x.h5': bytes.subarray(0, 4096) })).catch((e: unknown) => e);
      expect(String((trunc as Error).message)).toMatch(/damaged or not HDF5|not a readable HDF5/);
    },
  );
});
