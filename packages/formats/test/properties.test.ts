import { sharedData } from '@cellcloud/testkit';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { detectSpecies, fileProperties, parseGeneRelease, readDataset, summarizeCounts } from '../src/index';
import { folderBundle, pathBundle } from '../src/node-sources';

const human = sharedData('gene_ids/human_GRCh38-2024-A_features.tsv.gz');
const mouse = sharedData('gene_ids/mouse_mm10-3.0.0_features.tsv.gz');
const releases = () => [
  parseGeneRelease(
    'GRCh38-2024-A (Ensembl 110)',
    'Homo sapiens',
    new TextDecoder().decode(gunzipSync(readFileSync(human!))),
  ),
  parseGeneRelease(
    'mm10-3.0.0 (Ensembl 93)',
    'Mus musculus',
    new TextDecoder().decode(gunzipSync(readFileSync(mouse!))),
  ),
];

describe('species from gene names', () => {
  it('uses Ensembl prefixes, then symbol case and MT- / mt-', () => {
    expect(
      detectSpecies({ ids: ['ENSMUSG00000051951', 'ENSMUSG00000025900'], symbols: ['Xkr4', 'Rp1'] }),
    ).toEqual({ species: 'Mus musculus', confidence: 1, basis: 'ensembl-id' });
    expect(
      detectSpecies({ ids: ['CD3D', 'MS4A1', 'MT-CO1'], symbols: ['CD3D', 'MS4A1', 'MT-CO1'] }),
    ).toMatchObject({ species: 'Homo sapiens', basis: 'symbol-case' });
    expect(
      detectSpecies({ ids: ['Cd3d', 'Ms4a1', 'mt-Co1'], symbols: ['Cd3d', 'Ms4a1', 'mt-Co1'] }),
    ).toMatchObject({ species: 'Mus musculus', basis: 'symbol-case' });
    expect(detectSpecies({ ids: ['1', '2'], symbols: ['1', '2'] })).toEqual({
      species: 'unknown',
      confidence: 0,
      basis: 'none',
    });
  });
});

describe('file properties on the shared data', () => {
  const pbmc = sharedData('pbmc3k/pbmc3k.h5ad');
  it.skipIf(!pbmc || !human || !mouse)(
    'pbmc3k: human by symbols, summary matches the Seurat metadata, GRCh38 is the best release',
    async () => {
      const ds = await readDataset(await pathBundle(pbmc!));
      const p = fileProperties(ds, releases());
      expect(p.species.species).toBe('Homo sapiens');
      expect(p.species.basis).toBe('symbol-case');
      expect(p.species.confidence).toBeGreaterThan(0.9);
      expect(p.summary).toMatchObject({ cells: 2638, genes: 13714, nonZeros: 2238732, umiTotal: 6254880 });
      const med = (v: Float64Array) => {
        const s = v.slice().sort();
        return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
      };
      const nCount = ds.cells.columns['nCount_RNA']!.values as Float64Array;
      const nFeature = ds.cells.columns['nFeature_RNA']!.values as Float64Array;
      expect(p.summary.umiMedianPerCell).toBe(med(nCount));
      expect(p.summary.genesMedianPerCell).toBe(med(nFeature));
      expect(p.release?.name).toContain('GRCh38');
      expect(p.release?.by).toBe('symbol');
      expect(p.release!.overlapPercent).toBeGreaterThan(80);
      expect(p.releases.find((r) => r.species === 'Mus musculus')!.overlapPercent).toBeLessThan(
        p.release!.overlapPercent,
      );
    },
  );

  const m10k = sharedData('mouse10k_subset_scanpy/matrix.mtx.gz');
  it.skipIf(!m10k || !human || !mouse)('mouse10k: mouse by Ensembl ids, matches mm10 by id', async () => {
    const ds = await readDataset(await folderBundle(path.dirname(m10k!)));
    const p = fileProperties(ds, releases());
    expect(p.species).toEqual({ species: 'Mus musculus', confidence: 1, basis: 'ensembl-id' });
    expect(p.release).toMatchObject({ species: 'Mus musculus', by: 'id' });
    expect(p.release!.overlapPercent).toBeGreaterThan(95);
    expect(p.summary.cells).toBe(10000);
  });

  it('summarizes counts', () => {
    const s = summarizeCounts({
      nGenes: 3,
      nCells: 3,
      indptr: new Float64Array([0, 2, 2, 3]),
      indices: new Uint32Array([0, 2, 1]),
      data: new Float32Array([1, 4, 7]),
    });
    expect(s).toEqual({
      cells: 3,
      genes: 3,
      nonZeros: 3,
      umiTotal: 12,
      umiMedianPerCell: 5,
      genesMedianPerCell: 1,
    });
  });
});
