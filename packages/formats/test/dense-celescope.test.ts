import { sharedData } from '@cellcloud/testkit';
import { gzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { bundleOf, bytesSource, detectFormat, readDataset, write10xMtx } from '../src/index';
import { pathBundle } from '../src/node-sources';
import { expectCode } from './errors';
import { sameCounts, smallDataset } from './fixtures';

const enc = new TextEncoder();
const ds = smallDataset();

function dense(orientation: 'genes-x-cells' | 'cells-x-genes', sep: string): string {
  const { nGenes, nCells, indptr, indices, data } = ds.counts;
  const m = Array.from({ length: nGenes }, () => new Array<number>(nCells).fill(0));
  for (let j = 0; j < nCells; j++)
    for (let k = indptr[j]!; k < indptr[j + 1]!; k++) m[indices[k]!]![j] = data[k]!;
  if (orientation === 'genes-x-cells') {
    return (
      [
        ['gene', ...ds.cells.barcodes].join(sep),
        ...m.map((row, g) => [ds.genes.ids[g], ...row].join(sep)),
      ].join('\n') + '\n'
    );
  }
  return (
    [
      ['', ...ds.genes.ids].join(sep),
      ...ds.cells.barcodes.map((b, j) => [b, ...m.map((row) => row[j])].join(sep)),
    ].join('\n') + '\n'
  );
}

describe('dense text reader', () => {
  it('reads a genes × cells TSV and a gzipped cells × genes CSV back exactly, reporting the orientation', async () => {
    const tsv = await readDataset(
      bundleOf('u', [bytesSource('counts.tsv', enc.encode(dense('genes-x-cells', '\t')))]),
    );
    expect(tsv.format).toBe('dense-text');
    expect(sameCounts(tsv.counts, ds.counts)).toBe(true);
    expect(tsv.genes.ids).toEqual(ds.genes.ids);
    expect(tsv.cells.barcodes).toEqual(ds.cells.barcodes);
    expect(tsv.warnings[0]).toContain('genes × cells');
    const csv = await readDataset(
      bundleOf('u', [bytesSource('counts.csv.gz', gzipSync(enc.encode(dense('cells-x-genes', ','))))]),
    );
    expect(sameCounts(csv.counts, ds.counts)).toBe(true);
    expect(csv.cells.barcodes).toEqual(ds.cells.barcodes);
    expect(csv.warnings[0]).toContain('cells × genes (transposed)');
  });

  it('reports ragged rows, non-numbers and normalized values', async () => {
    await expectCode(
      readDataset(
        bundleOf('u', [
          bytesSource('a.tsv', enc.encode('g\tAAACGGTTAACC-1\tAAACGGTTAACG-1\nCD3D\t1\t2\nMS4A1\t1\n')),
        ]),
      ),
      'text.bad_row',
    );
    const e = await expectCode(
      readDataset(bundleOf('u', [bytesSource('a.tsv', enc.encode('g\tc1\tc2\nCD3D\t1\tabc\n'))])),
      'text.bad_value',
    );
    expect(e.params).toMatchObject({ line: 2, column: 3, value: 'abc' });
    await expectCode(
      readDataset(bundleOf('u', [bytesSource('a.tsv', enc.encode('g\tc1\tc2\nCD3D\t1\t0.25\n'))])),
      'counts.non_integer',
    );
    await expectCode(
      readDataset(bundleOf('u', [bytesSource('a.tsv', enc.encode('g\tc1\tc2\n'))])),
      'text.empty',
    );
  });

  const oligo = sharedData(
    'infercnv_oligodendroglioma/oligodendroglioma_expression_downsampled.counts.matrix.gz',
  );
  it.skipIf(!oligo)(
    'reads the inferCNV example (header without corner cell, non-integer values allowed on request)',
    async () => {
      const b = await pathBundle(oligo!);
      await expectCode(readDataset(b), 'counts.non_integer');
      const d = await readDataset(b, { allowNonInteger: true });
      expect(d.counts.nGenes).toBe(10338);
      expect(d.counts.nCells).toBe(184);
      expect(d.warnings.join(' ')).toContain('genes × cells');
    },
  );
});

describe('CeleScope folders', () => {
  const files = write10xMtx(ds.counts, ds.genes, ds.cells.barcodes);
  const tsne = [
    'barcode\ttSNE_1\ttSNE_2\tcluster\tGene_Counts',
    ...ds.cells.barcodes.map((b, j) => `${b}\t${j}.5\t${-j}\t${(j % 3) + 1}\t${j * 10}`),
  ].join('\n');
  const metrics = JSON.stringify({ cells_summary: { 'Estimated Number of Cells': ds.counts.nCells } });
  const v2 = {
    'S1/outs/filtered/matrix.mtx.gz': files['matrix.mtx'],
    'S1/outs/filtered/features.tsv.gz': files['features.tsv'],
    'S1/outs/filtered/barcodes.tsv.gz': files['barcodes.tsv'],
    'S1/outs/raw/matrix.mtx.gz': files['matrix.mtx'],
    'S1/outs/raw/features.tsv.gz': files['features.tsv'],
    'S1/outs/raw/barcodes.tsv.gz': files['barcodes.tsv'],
    'S1/outs/tsne_coord.tsv': enc.encode(tsne),
    'S1/.metrics.json': enc.encode(metrics),
  };

  it('reads a v2 sample folder (zip) with its tSNE/cluster metadata and metrics', async () => {
    const b = bundleOf('S1.zip', [bytesSource('S1.zip', zipSync(v2))]);
    expect((await detectFormat(b)).format).toBe('celescope');
    const d = await readDataset(b);
    expect(d.format).toBe('celescope');
    expect(sameCounts(d.counts, ds.counts)).toBe(true);
    const cluster = d.cells.columns['cluster'];
    expect(cluster?.kind === 'categorical' && cluster.values.slice(0, 4)).toEqual(['1', '2', '3', '1']);
    expect(d.cells.columns['Gene_Counts']?.values[2]).toBe(20);
    expect(Array.from(d.embeddings['X_tsne']!.values.slice(0, 4))).toEqual([0.5, 0, 1.5, -1]);
    expect(d.sampleMetrics).toEqual(JSON.parse(metrics));
  });

  it('reads a v1 layout (05.count/<sample>_filtered_feature_bc_matrix with plain files)', async () => {
    const plain = write10xMtx(ds.counts, ds.genes, ds.cells.barcodes, { gzip: false });
    const b = bundleOf('S2', [
      bytesSource('S2/05.count/S2_filtered_feature_bc_matrix/matrix.mtx', plain['matrix.mtx']),
      bytesSource(
        'S2/05.count/S2_filtered_feature_bc_matrix/genes.tsv',
        enc.encode(ds.genes.ids.map((id, g) => `${id}\t${ds.genes.symbols[g]}`).join('\n')),
      ),
      bytesSource('S2/05.count/S2_filtered_feature_bc_matrix/barcodes.tsv', plain['barcodes.tsv']),
      bytesSource('S2/06.analysis/S2_tsne_coord.tsv', enc.encode(tsne)),
    ]);
    const d = await readDataset(b);
    expect(d.format).toBe('celescope');
    expect(sameCounts(d.counts, ds.counts)).toBe(true);
    expect(d.embeddings['X_tsne']?.dims).toBe(2);
  });
});
