import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dataset } from '@cellcloud/formats';
import { attachMetadataFiles } from '../src/jobs/dataset.metadata';
import { createTestServer, type TestServer } from './support/harness';

/** The optional metadata / group table of an upload becomes per-cell columns (issue 13). */
describe('upload metadata table', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await createTestServer();
  });
  afterAll(() => s?.close());

  const dataset = (): Dataset => ({
    counts: {
      nGenes: 1,
      nCells: 3,
      indptr: Float64Array.from([0, 1, 2, 3]),
      indices: new Uint32Array(3),
      data: Float32Array.from([1, 2, 3]),
    },
    genes: { ids: ['G1'], symbols: ['CD3D'] },
    cells: {
      barcodes: ['AAAC-1', 'AAAG-1', 'AAAT-1'],
      columns: { label: { kind: 'categorical', values: ['x', 'y', 'z'] } },
    },
    embeddings: {},
    format: '10x-mtx',
    warnings: [],
  });

  it('attaches the columns (tab or comma, header optional, gzip), reports unmatched barcodes, never overwrites', async () => {
    await s.ctx.storage.put(
      'raw/meta1',
      new TextEncoder().encode('barcode\tlabel\tscore\nAAAC-1\tT\t1.5\nAAAT-1\tB\t2\nGGGG-1\tNK\t3\n'),
    );
    await s.ctx.storage.put('raw/meta2', gzipSync(Buffer.from('AAAC-1,ctrl\nAAAG-1,stim\nAAAT-1,stim\n')));
    const d = dataset();
    await attachMetadataFiles(
      s.ctx.storage,
      [
        { name: 'groups.tsv', key: 'raw/meta1' },
        { name: 'cond.csv.gz', key: 'raw/meta2' },
      ],
      d,
    );
    expect(d.cells.columns.label_metadata).toEqual({ kind: 'categorical', values: ['T', 'NA', 'B'] });
    expect(d.cells.columns.label).toEqual({ kind: 'categorical', values: ['x', 'y', 'z'] });
    expect(d.cells.columns.score?.kind).toBe('numeric');
    expect(
      Object.values(d.cells.columns).some(
        (c) => c.kind === 'categorical' && c.values.join() === 'ctrl,stim,stim',
      ),
    ).toBe(true);
    expect(d.warnings).toHaveLength(1);
    expect(d.warnings[0]).toMatch(
      /groups\.tsv: 2 of 3 cells matched; 1 barcode\(s\) match no cell \(e\.g\. GGGG-1\); 1 cell\(s\) have no row/,
    );
  });

  it('a table whose barcodes match nothing is reported and not attached', async () => {
    await s.ctx.storage.put('raw/meta3', new TextEncoder().encode('cell,group\nXXXX-1,a\n'));
    const d = dataset();
    await attachMetadataFiles(s.ctx.storage, [{ name: 'other.csv', key: 'raw/meta3' }], d);
    expect(Object.keys(d.cells.columns)).toEqual(['label']);
    expect(d.warnings[0]).toMatch(/no barcode matches/);
  });
});
