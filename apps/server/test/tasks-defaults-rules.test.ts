import { describe, expect, it } from 'vitest';
import { findTask } from '@cellcloud/tasks/contract';
import {
  cellTypeLevel,
  cnvReference,
  isReferenceType,
  resolveDefaults,
  type DatasetFacts,
  type LevelFact,
} from '@cellcloud/tasks/contract';

/**
 * The pure rules of the dataset defaults (issue 31; docs/methods/<task>.md "Defaults"): the
 * level choice, the CNV reference matched by name, and what resolveDefaults fills for tasks of
 * the registry.
 */
const level = (key: string, types: Record<string, number>): LevelFact => ({
  key,
  labels: Object.keys(types),
  counts: Object.values(types),
});
const cluster = level('cluster', { '0': 500, '1': 400, '2': 100 });
const sample = level('Sample ID', { s1: 600, s2: 400 });
const tumour = level('annot_auto', {
  'Epithelial cells': 600,
  'CD8+ T cells': 150,
  Macrophages: 90,
  Fibroblasts: 60,
  'Endothelial cells': 40,
  Unassigned: 5,
});

describe('dataset defaults rules', () => {
  it('matches immune and stromal names case-insensitively, plural or not, and nothing else', () => {
    for (const l of [
      'T cells',
      'CD4+ T',
      'NK',
      'B-cell',
      'Plasma cells',
      'CD14+ Mono',
      'Macrophage',
      'pDC',
      'Mast cells',
      'cDC2',
      'MAIT',
    ])
      expect(isReferenceType(l), l).toBe(true);
    for (const l of ['fibroblasts', 'ENDOTHELIAL', 'Pericytes', 'Neutrophils', 'Dendritic cells'])
      expect(isReferenceType(l), l).toBe(true);
    for (const l of [
      'Epithelial cells',
      'Hepatocytes',
      'Tumor',
      'Platelet',
      'Basal',
      'Malignant cells',
      'CD34+ progenitor',
    ])
      expect(isReferenceType(l), l).toBe(false);
  });

  it('chooses the automatic annotation, else the clusters, never the sample level', () => {
    expect(cellTypeLevel([sample, cluster, tumour])).toEqual({ key: 'annot_auto', kind: 'auto' });
    expect(cellTypeLevel([sample, cluster])).toEqual({ key: 'cluster', kind: 'cluster' });
    const own = level('celltype', { a: 1, b: 2 });
    expect(cellTypeLevel([sample, own])).toEqual({ key: 'celltype', kind: 'other' });
    // an automatic level with a single type is skipped
    expect(cellTypeLevel([level('annot_auto', { 'T cells': 9, Unassigned: 1 }), cluster])?.key).toBe(
      'cluster',
    );
  });

  it('takes the immune and stromal types as CNV reference; in blood the largest type is observed instead', () => {
    expect(cnvReference(tumour, 50)).toEqual({
      reference: ['CD8+ T cells', 'Macrophages', 'Fibroblasts', 'Endothelial cells'],
    });
    const blood = level('annot_auto', {
      'T cells': 1200,
      Monocytes: 700,
      'B cells': 340,
      NK: 150,
      Platelet: 14,
    });
    expect(cnvReference(blood, 50)).toEqual({
      reference: ['Monocytes', 'B cells', 'NK'],
      observedInstead: 'T cells',
    });
    expect(cnvReference(level('annot_auto', { Tumour: 10, Epithelial: 20 }), 50)).toBeNull();
  });

  it('fills the absent params of the registry tasks; given values win', () => {
    const facts: DatasetFacts = { species: 'Homo sapiens', levels: [cluster, sample, tumour] };
    const cnv = resolveDefaults(findTask('cnv')!, facts, {});
    expect(cnv.params.groupBy).toBe('annot_auto');
    expect(cnv.params.reference).toEqual(['CD8+ T cells', 'Macrophages', 'Fibroblasts', 'Endothelial cells']);
    expect(cnv.missing).toEqual([]);
    expect(resolveDefaults(findTask('cnv')!, facts, { groupBy: 'cluster' }).missing[0]?.key).toBe(
      'tasks.defaults.noReference',
    );
    const deg = resolveDefaults(findTask('deg-groups')!, facts, {});
    expect(deg.params.group1).toEqual([{ key: 'annot_auto', values: ['Epithelial cells'] }]);
    expect(deg.params.group2).toEqual([
      { key: 'annot_auto', values: ['CD8+ T cells', 'Macrophages', 'Fibroblasts', 'Endothelial cells'] },
    ]);
    const enrich = resolveDefaults(findTask('enrich')!, { ...facts, latestDegGroups: 'x' }, {});
    expect(enrich.params).toEqual({ sourceTaskId: 'x' });
    const score = resolveDefaults(findTask('cell-score')!, facts, {});
    expect(score.params.builtinSet).toBe('cellCycleG2M');
    expect(
      resolveDefaults(findTask('cell-score')!, facts, {}, ['geneSet']).params.builtinSet,
    ).toBeUndefined();
    const annotate = resolveDefaults(findTask('annotate')!, { ...facts, tissue: 'lung' }, {});
    expect(annotate.params).toMatchObject({ species: 'Homo sapiens', tissue: 'lung' });
    expect(resolveDefaults(findTask('annotate')!, facts, {}).missing.map((m) => m.field)).toEqual(['tissue']);
    expect(resolveDefaults(findTask('ith')!, facts, { groupBy: 'Sample ID' }).params.groupBy).toBe(
      'Sample ID',
    );
  });
});
