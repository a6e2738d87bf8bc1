import { sharedData } from '@cellcloud/testkit';
import { describe, expect, it } from 'vitest';
import { looksPlateBased } from '@cellcloud/contracts/wizard';
import { bytesSource, readDataset, summarizeCounts, type SourceBundle } from '../src/index';
import { pathBundle } from '../src/node-sources';
import { expectCode } from './errors';

/**
 * Issue 32: the value kind of an upload (docs/methods/import-formats.md#value-kinds) — integer
 * counts, non-integer counts (TPM, expected counts) or log-normalized — detected at import, on the
 * inferCNV oligodendroglioma matrix as it ships and on small tables of each kind.
 */
const oligo = sharedData(
  'infercnv_oligodendroglioma/oligodendroglioma_expression_downsampled.counts.matrix.gz',
);

const enc = new TextEncoder();
const table = (cell: (g: number, c: number) => string) =>
  `gene\t${Array.from({ length: 6 }, (_, c) => `cell${c}`).join('\t')}\n` +
  Array.from(
    { length: 8 },
    (_, g) => `GENE${g}\t${Array.from({ length: 6 }, (_, c) => cell(g, c)).join('\t')}`,
  ).join('\n') +
  '\n';
const bundle = (text: string): SourceBundle => ({
  name: 'sample',
  entries: [bytesSource('counts.tsv', enc.encode(text))],
});
const opts = { nonIntegerFormats: ['dense-text' as const] };

describe('value kind at import', () => {
  it('integer, non-integer and log-normalized tables are told apart', async () => {
    const ints = await readDataset(bundle(table((g, c) => String((g * 7 + c * 3) % 11))), opts);
    expect(ints.valueKind).toBe('counts');
    const tpm = await readDataset(bundle(table((g, c) => ((g * 7 + c * 3) % 11) * 41.37 + '')), opts);
    expect(tpm.valueKind).toBe('nonIntegerCounts');
    const logged = await readDataset(
      bundle(table((g, c) => Math.log1p(((g * 7 + c * 3) % 11) * 3.3).toFixed(4))),
      opts,
    );
    expect(logged.valueKind).toBe('logNormalized');
    expect(logged.warnings.join(' ')).toMatch(/log-normalized/);
  });

  it('negative values, NaN and infinities are still refused with their own message', async () => {
    await expectCode(readDataset(bundle(table((g) => (g === 3 ? '-1.5' : '2.5'))), opts), 'counts.negative');
    await expectCode(readDataset(bundle(table((g) => (g === 3 ? 'NaN' : '2.5'))), opts), 'text.bad_value');
    await expectCode(
      readDataset(bundle(table((g) => (g === 3 ? 'Infinity' : '2.5'))), opts),
      'text.bad_value',
    );
    await expectCode(
      readDataset(bundle(table((g) => (g === 3 ? '1e40' : '2.5'))), opts),
      'counts.not_finite',
    );
  });

  it.skipIf(!oligo)('the inferCNV oligodendroglioma matrix: non-integer counts of a plate', async () => {
    const ds = await readDataset(await pathBundle(oligo!), opts);
    expect(ds.format).toBe('dense-text');
    expect(ds.counts.nCells).toBe(184);
    expect(ds.counts.nGenes).toBe(10338);
    expect(ds.nonInteger).toBe(true);
    expect(ds.valueKind).toBe('nonIntegerCounts');
    // the header row names the cells without a gene column: read genes × cells
    expect(ds.cells.barcodes[0]).toBe('MGH54_P16_F12');
    expect(ds.genes.symbols[0]).toBe('A2M');
    const sum = summarizeCounts(ds.counts);
    expect(sum.umiMedianPerCell).toBeGreaterThan(50_000);
    expect(
      looksPlateBased([{ cells: sum.cells, umi: { median: sum.umiMedianPerCell }, valueKind: ds.valueKind }]),
    ).toBe(true);
    // droplet data are not taken for plates: pbmc3k-like depth
    expect(looksPlateBased([{ cells: 2700, umi: { median: 2200 }, valueKind: 'counts' }])).toBe(false);
    // and without the upload's permission the matrix is refused as before
    await expectCode(readDataset(await pathBundle(oligo!)), 'counts.non_integer');
  });
});
