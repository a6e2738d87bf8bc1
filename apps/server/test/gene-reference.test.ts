import { readDataset } from '@cellcloud/formats';
import { pathBundle } from '@cellcloud/formats/node-sources';
import { sharedData } from '@cellcloud/testkit';
import { describe, expect, it } from 'vitest';
import { loadGeneReferences, matchReference } from '../src/services/files/gene-reference';

const v3 = sharedData('scanpy_bundled/10x_v3_small');
const mouse = sharedData('mouse10k_subset_scanpy');
const lists = sharedData('gene_ids');

describe.skipIf(!v3 || !mouse || !lists)('file properties: species and Ensembl reference', () => {
  it('detects the species from the genes even when no reference lists are configured', async () => {
    const d = await readDataset(await pathBundle(v3!));
    expect(matchReference(d, [])).toEqual({
      species: 'Homo sapiens',
      ensemblRelease: null,
      ensemblReference: null,
      overlapPercent: 0,
    });
  });

  it('picks the reference of the detected species with its Ensembl release and overlap', async () => {
    const refs = await loadGeneReferences(lists);
    const human = matchReference(await readDataset(await pathBundle(v3!)), refs);
    expect(human).toMatchObject({
      species: 'Homo sapiens',
      ensemblRelease: 110,
      ensemblReference: 'GRCh38-2024-A',
    });
    expect(human.overlapPercent).toBeGreaterThan(80);
    const m = matchReference(await readDataset(await pathBundle(mouse!)), refs);
    expect(m).toMatchObject({ species: 'Mus musculus', ensemblRelease: 93, ensemblReference: 'mm10-3.0.0' });
    expect(m.overlapPercent).toBeGreaterThan(95);
  });
});
