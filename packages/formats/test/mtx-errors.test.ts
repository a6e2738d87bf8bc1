import { describe, expect, it } from 'vitest';
import {
  bundleOf,
  bytesSource,
  formatErrorCodes,
  formatErrorMessages,
  readDataset,
  renderFormatError,
} from '../src/index';
import { expectCode } from './errors';

const enc = new TextEncoder();
const HEADER = '%%MatrixMarket matrix coordinate integer general\n';
const features = (n: number) =>
  Array.from({ length: n }, (_, g) => `ENSG0000000000${g}\tG${g}\tGene Expression`).join('\n') + '\n';
const barcodes = (n: number) =>
  Array.from({ length: n }, (_, j) => `AAAC${'ACGT'[j % 4]}${'ACGT'[(j >> 2) % 4]}GGTTAA-1`).join('\n') +
  '\n';

function bundle(mtx: string, nGenes = 3, nCells = 2, feats = features(nGenes)) {
  return bundleOf('sample', [
    bytesSource('matrix.mtx', enc.encode(mtx)),
    bytesSource('features.tsv', enc.encode(feats)),
    bytesSource('barcodes.tsv', enc.encode(barcodes(nCells))),
  ]);
}

describe('10x MTX malformed input', () => {
  it('reads a valid, unsorted file with CRLF, comments and a duplicate entry', async () => {
    const ds = await readDataset(
      bundle(`${HEADER}% comment\r\n3 2 5\r\n3 2 4\r\n1 1 2\r\n2 2 1\r\n1 2 7\r\n2 2 2\r\n`),
    );
    expect(Array.from(ds.counts.indptr)).toEqual([0, 1, 4]);
    expect(Array.from(ds.counts.indices)).toEqual([0, 0, 1, 2]);
    expect(Array.from(ds.counts.data)).toEqual([2, 7, 3, 4]);
    expect(ds.warnings.join(' ')).toContain('summed');
  });

  it('reads a cells × genes matrix transposed, with a warning', async () => {
    const ds = await readDataset(bundle(`${HEADER}2 3 2\n1 3 5\n2 1 1\n`));
    expect(ds.counts.nGenes).toBe(3);
    expect(Array.from(ds.counts.indices)).toEqual([2, 0]);
    expect(ds.warnings.join(' ')).toContain('transposed');
  });

  it('repairs one-column features and prefixes numeric barcodes', async () => {
    const b = bundleOf('S1', [
      bytesSource('matrix.mtx', enc.encode(`${HEADER}2 2 1\n1 1 3\n`)),
      bytesSource('features.tsv', enc.encode('CD3D\nCD3D\n')),
      bytesSource('barcodes.tsv', enc.encode('101\n102\n')),
    ]);
    const ds = await readDataset(b);
    expect(ds.genes.ids).toEqual(['CD3D', 'CD3D-1']);
    expect(ds.genes.symbols).toEqual(['CD3D', 'CD3D']);
    expect(ds.genes.featureTypes).toEqual(['Gene Expression', 'Gene Expression']);
    expect(ds.cells.barcodes).toEqual(['S1_101', 'S1_102']);
  });

  it('keeps Gene Expression features only', async () => {
    const feats = 'E1\tA\tGene Expression\nAB1\tCD3\tAntibody Capture\nE2\tB\tGene Expression\n';
    const ds = await readDataset(bundle(`${HEADER}3 2 3\n1 1 1\n2 1 5\n3 2 2\n`, 3, 2, feats));
    expect(ds.genes.ids).toEqual(['E1', 'E2']);
    expect(Array.from(ds.counts.indices)).toEqual([0, 1]);
  });

  const cases: [string, string, Record<string, string | number>][] = [
    ['truncated file', `${HEADER}3 2 4\n1 1 1\n2 2 1\n`, { expected: 4, found: 2 }],
    ['too many entries', `${HEADER}3 2 1\n1 1 1\n2 2 1\n`, { line: 4 }],
    ['gene count mismatch', `${HEADER}4 2 1\n1 1 1\n`, { matrixGenes: 4, listed: 3 }],
    ['barcode count mismatch', `${HEADER}3 5 1\n1 1 1\n`, { matrixCells: 5, listed: 2 }],
    ['non-integer value', `${HEADER}3 2 2\n1 1 1\n2 2 0.5\n`, { where: 'line 4', value: 0.5 }],
    ['negative value', `${HEADER}3 2 1\n1 1 -3\n`, { value: -3 }],
    ['index out of range', `${HEADER}3 2 2\n1 1 1\n4 2 1\n`, { line: 4, row: 4 }],
    ['zero index', `${HEADER}3 2 1\n0 1 1\n`, { row: 0 }],
    ['bad banner', `%%MatrixMarket matrix array real general\n3 2\n`, { line: 1 }],
    ['not a MatrixMarket file', `hello\n`, { line: 1 }],
    ['bad size line', `${HEADER}3 2\n`, { line: 2 }],
    ['garbage entry', `${HEADER}3 2 1\n1 x 1\n`, { line: 3, text: '1 x 1' }],
    ['missing value', `${HEADER}3 2 1\n1 1\n`, { line: 3 }],
  ];
  const codes = [
    'mtx.truncated',
    'mtx.too_many_entries',
    'mtx.gene_count_mismatch',
    'mtx.barcode_count_mismatch',
    'counts.non_integer',
    'counts.negative',
    'mtx.index_out_of_range',
    'mtx.index_out_of_range',
    'mtx.bad_header',
    'mtx.bad_header',
    'mtx.bad_header',
    'mtx.bad_entry',
    'mtx.bad_entry',
  ];
  cases.forEach(([title, text, params], i) => {
    it(`reports ${title} as ${codes[i]}`, async () => {
      const e = await expectCode(readDataset(bundle(text)), codes[i]!);
      expect(e.params).toMatchObject({ file: 'matrix.mtx', ...params });
      expect(e.message).toContain('matrix.mtx');
    });
  });

  it('has English and Chinese templates for every code, with the same placeholders', () => {
    for (const code of formatErrorCodes) {
      const { en, zh } = formatErrorMessages[code];
      const keys = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      expect(keys(zh)).toEqual(keys(en));
      expect(zh).toMatch(/[\u4e00-\u9fff]/);
    }
    expect(renderFormatError('mtx.truncated', { file: 'm.mtx', expected: 4, found: 2 }, 'zh')).toBe(
      'm.mtx：文件不完整：文件头声明 4 个条目，实际只有 2 个。请上传完整文件。',
    );
  });
});
