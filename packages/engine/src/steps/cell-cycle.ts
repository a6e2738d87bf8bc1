import type { AnalysisParams } from '@cellcloud/contracts/analysis-params';
import type { HvgStep } from './hvg';
import type { NormalizeStep } from './normalize';
import { Step } from './step';

export type CellCycleParams = Pick<AnalysisParams, 'removeCellCycleEffects' | 'species'>;

export interface CellCycleResult {
  scores?: { s: Float32Array; g2m: Float32Array; phase: string[] };
  /** HVG log values with S/G2M scores regressed out, column-major nGenes(HVG) × nCells. */
  regressed?: { nGenes: number; values: Float32Array };
}

export class CellCycleStep extends Step<CellCycleParams, CellCycleResult> {
  readonly name = 'cellCycle' as const;

  constructor(
    private readonly normalize: NormalizeStep,
    private readonly hvg: HvgStep,
  ) {
    super([normalize, hvg]);
  }

  static defaults(): CellCycleParams {
    return { removeCellCycleEffects: false, species: 'Homo sapiens' };
  }

  protected run(_params: CellCycleParams): CellCycleResult {
    return {};
  }
}
