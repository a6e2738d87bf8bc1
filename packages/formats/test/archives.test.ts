import { gzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { bundleOf, bytesSource, fflateGunzipChunks, readDataset, write10xMtx } from '../src/index';
import { nodeGunzipChunks } from '../src/node-sources';
import { expectCode } from './errors';
import { makeTar, sameCounts, smallDataset } from './fixtures';

const ds = smallDataset();
const files = write10xMtx(ds.counts, ds.genes, ds.cells.barcodes);
const gz = {
  'matrix.mtx.gz': files['matrix.mtx'],
  'features.tsv.gz': files['features.tsv'],
  'barcodes.tsv.gz': files['barcodes.tsv'],
};

describe('10x MTX round trip through folders and archives', () => {
  it('reads the gzipped folder it wrote', async () => {
    const back = await readDataset(
      bundleOf(
        'sample',
        Object.entries(gz).map(([n, b]) => bytesSource(n, b)),
      ),
    );
    expect(back.format).toBe('10x-mtx');
    expect(sameCounts(back.counts, ds.counts)).toBe(true);
    expect(back.genes.ids).toEqual(ds.genes.ids);
    expect(back.genes.symbols).toEqual(ds.genes.symbols);
    expect(back.cells.barcodes).toEqual(ds.cells.barcodes);
  });

  it('reads a zip holding a nested folder', async () => {
    const zip = zipSync(
      Object.fromEntries(Object.entries(gz).map(([n, b]) => [`filtered_feature_bc_matrix/${n}`, b])),
    );
    const back = await readDataset(bundleOf('upload.zip', [bytesSource('upload.zip', zip)]));
    expect(sameCounts(back.counts, ds.counts)).toBe(true);
  });

  it('reads a tar and a tar.gz of uncompressed v2 files', async () => {
    const plain = write10xMtx(ds.counts, ds.genes, ds.cells.barcodes, { gzip: false });
    const genes = new TextEncoder().encode(
      ds.genes.ids.map((id, g) => `${id}\t${ds.genes.symbols[g]}`).join('\n') + '\n',
    );
    const tar = makeTar({
      'hg19/matrix.mtx': plain['matrix.mtx'],
      'hg19/genes.tsv': genes,
      'hg19/barcodes.tsv': plain['barcodes.tsv'],
    });
    for (const [name, bytes] of [
      ['m.tar', tar],
      ['m.tar.gz', gzipSync(tar)],
    ] as const) {
      const back = await readDataset(bundleOf(name, [bytesSource(name, bytes)]));
      expect(sameCounts(back.counts, ds.counts)).toBe(true);
      expect(back.genes.featureTypes).toBeUndefined();
    }
  });

  it('reports corrupt and truncated gzip', async () => {
    const bad = files['matrix.mtx'].slice();
    bad.fill(7, 20, 60);
    await expectCode(
      readDataset(
        bundleOf('s', [
          bytesSource('matrix.mtx.gz', bad),
          bytesSource('features.tsv.gz', gz['features.tsv.gz']),
          bytesSource('barcodes.tsv.gz', gz['barcodes.tsv.gz']),
        ]),
      ),
      'gzip.corrupt',
    );
    const cut = files['matrix.mtx'].subarray(0, files['matrix.mtx'].length - 40);
    const e = await expectCode(
      readDataset(
        bundleOf('s', [
          bytesSource('matrix.mtx.gz', cut),
          bytesSource('features.tsv.gz', gz['features.tsv.gz']),
          bytesSource('barcodes.tsv.gz', gz['barcodes.tsv.gz']),
        ]),
      ),
      'gzip.corrupt',
    );
    expect(e.params['file']).toBe('matrix.mtx.gz');
  });

  it('native (Node zlib) gunzip reports the same errors and output as fflate', async () => {
    const chunks = (b: Uint8Array) => bytesSource('m.gz', b).stream();
    const all = async (it: AsyncIterable<Uint8Array>) => {
      let n = 0;
      for await (const c of it) n += c.length;
      return n;
    };
    expect(await all(nodeGunzipChunks(chunks(files['matrix.mtx']), 'm.gz'))).toBe(
      await all(fflateGunzipChunks(chunks(files['matrix.mtx']), 'm.gz')),
    );
    const cut = files['matrix.mtx'].subarray(0, files['matrix.mtx'].length - 40);
    await expectCode(all(nodeGunzipChunks(chunks(cut), 'm.gz')), 'gzip.corrupt');
    const bad = files['matrix.mtx'].slice();
    bad.fill(7, 20, 60);
    await expectCode(all(nodeGunzipChunks(chunks(bad), 'm.gz')), 'gzip.corrupt');
  });

  it('reports a corrupt zip and a missing file', async () => {
    const zip = zipSync({ 'matrix.mtx.gz': gz['matrix.mtx.gz'] });
    await expectCode(readDataset(bundleOf('u.zip', [bytesSource('u.zip', zip)])), 'source.missing_file');
    const broken = zipSync(gz).slice(0, 300);
    await expectCode(readDataset(bundleOf('u.zip', [bytesSource('u.zip', broken)])), 'archive.corrupt');
  });
});
