import { describe, expect, it } from 'vitest';
import { fillReferenceGaps } from '../../src/annotate/engine/reference-gaps';

/** Issue 13: a lineage missing from the reference (platelets in HCA) named from the marker call. */
describe('fillReferenceGaps', () => {
  const cluster = ['0', '0', '0', '1', '1', '1', '1', '2', '2', '2'];
  const labels = ['B', 'B', 'B', 'Myeloid', 'Endothelial', 'Macrophage', 'Myeloid', 'NK', 'NK', 'T'];
  const markers = new Map([
    ['0', { label: 'B cell' }],
    ['1', { label: 'Megakaryocyte progenitor cell' }],
    ['2', { label: 'Platelet' }],
  ]);

  it('relabels a cluster the reference disagrees on when its marker call is a lineage the reference lacks', () => {
    const r = fillReferenceGaps(labels, cluster, markers, [
      'B',
      'NK',
      'Myeloid',
      'Endothelial',
      'Macrophage',
    ]);
    expect(r.label).toEqual(['B', 'B', 'B', ...Array(4).fill('Megakaryocyte'), 'NK', 'NK', 'T']);
    // cluster 2 is called platelet by its markers, but the reference agrees on NK (2/3 ≥ 0.6): kept
    expect(r.filled).toEqual([{ cluster: '1', label: 'Megakaryocyte', agreement: 0.5 }]);
  });

  it('leaves everything when the reference has the lineage, or without marker calls', () => {
    expect(fillReferenceGaps(labels, cluster, markers, ['B', 'Megakaryocyte']).label).toEqual(labels);
    expect(fillReferenceGaps(labels, cluster, undefined, ['B']).filled).toEqual([]);
  });
});
