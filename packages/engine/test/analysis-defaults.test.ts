import { readFileSync } from 'node:fs';
import { ANALYSIS_DEFAULTS, analysisDefaults, analysisParams } from '@cellcloud/contracts/analysis-params';
import { describe, expect, it } from 'vitest';
import { DEFAULTS_DOC, renderDefaultsTable, withTable } from '../../../scripts/docs/defaults-table';
import { AmbientStep } from '../src/steps/ambient';
import { BatchStep } from '../src/steps/batch';
import { CellCycleStep } from '../src/steps/cell-cycle';
import { ClustersStep } from '../src/steps/clusters';
import { DoubletStep } from '../src/steps/doublets';
import { FilterStep } from '../src/steps/filter';
import { HvgStep } from '../src/steps/hvg';
import { PcaStep } from '../src/steps/pca';
import { Tsne3dStep, TsneStep } from '../src/steps/tsne';
import { UmapStep } from '../src/steps/umap';

/**
 * One source of defaults (docs/defaults.md): the engine steps' own defaults are the contract's, the
 * CLI's `{}` parses to ANALYSIS_DEFAULTS, and the generated docs table is up to date.
 */
describe('analysis defaults', () => {
  it('`{}` (the CLI with no --params) parses to ANALYSIS_DEFAULTS', () => {
    expect(analysisParams.parse({})).toEqual(JSON.parse(JSON.stringify(ANALYSIS_DEFAULTS)));
    // fresh copies: changing one run's parameters cannot change the defaults
    const a = analysisDefaults();
    a.expressedGeneRange.range[1] = 1;
    expect(analysisDefaults().expressedGeneRange.range[1]).toBe(
      ANALYSIS_DEFAULTS.expressedGeneRange.range[1],
    );
  });

  it("every engine step's static defaults() are the contract's values", () => {
    const all = analysisDefaults();
    const steps = [
      AmbientStep,
      BatchStep,
      CellCycleStep,
      ClustersStep,
      DoubletStep,
      FilterStep,
      HvgStep,
      PcaStep,
      TsneStep,
      Tsne3dStep,
      UmapStep,
    ];
    for (const S of steps) {
      const d = S.defaults() as Record<string, unknown>;
      expect(Object.keys(d).length, S.name).toBeGreaterThan(0);
      for (const [k, v] of Object.entries(d)) expect(v, `${S.name}.${k}`).toEqual(all[k as keyof typeof all]);
    }
    expect(ClustersStep.defaults().clusterResolution).toBe(0.5);
    expect(HvgStep.defaults().hvgMethod).toBe('seurat_v3');
    expect(FilterStep.defaults().expressedGeneRange.state).toBe('manual');
  });

  it('docs/defaults.md holds the table generated from the contract', () => {
    const doc = readFileSync(DEFAULTS_DOC, 'utf8');
    expect(doc).toContain(renderDefaultsTable());
    expect(withTable(doc)).toBe(doc);
    expect(renderDefaultsTable()).toContain('| `clusterResolution` | `0.5` | cluster |');
  });
});
