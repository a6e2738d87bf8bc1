import { pickDefaults, type AnalysisParams } from '@cellcloud/contracts/analysis-params';
import { CELL_CYCLE_GENES } from '../cell-cycle-genes';
import { EngineError } from '../errors';
import { scoreCellCycle } from '../methods/cell-cycle';
import { regressOut } from '../methods/regress-out';
import type { HvgStep } from './hvg';
import type { NormalizeStep } from './normalize';
import type { CountsSource } from './sources';
import { Step } from './step';

export type CellCycleParams = Pick<AnalysisParams, 'removeCellCycleEffects' | 'species' | 'seed'>;

export interface CellCycleResult {
  /** Absent when the data hold none of the S or none of the G2M genes (e.g. non-symbol ids). */
  scores?: { s: Float32Array; g2m: Float32Array; phase: string[] };
  /** HVG log values with S/G2M scores regressed out, cell after cell (nCells × nGenes row-major). */
  regressed?: { nGenes: number; values: Float32Array };
}

/** Whether the data hold at least one S-phase and one G2M-phase gene (else no scores, no error). */
export function cellCycleGenesFound(geneSymbols: readonly string[]): boolean {
  const symbols = new Set(geneSymbols.map((s) => s.toUpperCase()));
  const found = (list: string[]) => list.some((g) => symbols.has(g.toUpperCase()));
  return found(CELL_CYCLE_GENES.s) && found(CELL_CYCLE_GENES.g2m);
}

/**
 * S/G2M scores (D2's scanpy score_genes_cell_cycle with the Tirosh genes; species is always human
 * or mouse by the parameter schema) and, when `removeCellCycleEffects`, scanpy regress_out of both
 * scores from the HVG log values that the PCA uses (the other genes do not enter the PCA).
 */
export class CellCycleStep extends Step<CellCycleParams, CellCycleResult> {
  readonly name = 'cellCycle' as const;

  constructor(
    private readonly source: CountsSource,
    private readonly normalize: NormalizeStep,
    private readonly hvg: HvgStep,
  ) {
    super([source, normalize, hvg]);
  }

  static defaults(): CellCycleParams {
    return pickDefaults('removeCellCycleEffects', 'species', 'seed');
  }

  protected run(params: CellCycleParams): CellCycleResult {
    const norm = this.normalize.value;
    if (!cellCycleGenesFound(this.source.value.geneSymbols)) {
      if (params.removeCellCycleEffects) {
        throw new EngineError(
          'CELL_CYCLE_SPECIES',
          'None of the S-phase or G2M-phase marker genes is in the data, so cell-cycle effects cannot be removed; turn the option off or use gene symbols (human or mouse).',
        );
      }
      return {};
    }
    const cc = scoreCellCycle(norm, this.source.value.geneSymbols, CELL_CYCLE_GENES, { seed: params.seed });
    const scores = { s: cc.sScore, g2m: cc.g2mScore, phase: cc.phase };
    if (!params.removeCellCycleEffects) return { scores };
    const selected = this.hvg.value.selected;
    const col = new Int32Array(norm.nGenes).fill(-1);
    let nHvg = 0;
    for (let g = 0; g < norm.nGenes; g++) if (selected[g]) col[g] = nHvg++;
    const dense = new Float32Array(norm.nCells * nHvg);
    for (let c = 0; c < norm.nCells; c++) {
      for (let k = norm.indptr[c]; k < norm.indptr[c + 1]; k++) {
        const j = col[norm.indices[k]];
        if (j >= 0) dense[c * nHvg + j] = norm.data[k];
      }
    }
    return {
      scores,
      regressed: { nGenes: nHvg, values: regressOut(dense, norm.nCells, nHvg, [cc.sScore, cc.g2mScore]) },
    };
  }
}
