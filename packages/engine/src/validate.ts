import { analysisParams, type AnalysisParams } from '@cellcloud/contracts/analysis-params';
import { LIMITS } from '@cellcloud/contracts/constants';
import { EngineError } from './errors';
import type { NamedDataset } from './steps/inputs';

/** Parses parameters with the shared strict zod schema; unknown keys or bad ranges → INVALID_PARAMS. */
export function parseParams(input: unknown): AnalysisParams {
  const r = analysisParams.safeParse(input ?? {});
  if (!r.success) {
    const issues = r.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    throw new EngineError('INVALID_PARAMS', `Invalid analysis parameters: ${issues}`, { issues });
  }
  return r.data;
}

/** A sample plus the species its file properties report (when known). */
export interface SampleInput extends NamedDataset {
  species?: string;
}

/**
 * docs/product/validation.md#job-and-sample-names: at least one sample; unique names; each sample with more than 30 and fewer than
 * 100,000 cells; all samples of one species (and that species = the analysis species).
 */
export function validateSamples(samples: SampleInput[], params: AnalysisParams): void {
  if (samples.length === 0) throw new EngineError('NO_SAMPLES', 'Select at least one sample to analyse.');
  const seen = new Set<string>();
  for (const s of samples) {
    if (seen.has(s.name)) {
      throw new EngineError(
        'DUPLICATE_SAMPLE_NAME',
        `Sample name "${s.name}" is used twice; sample names must be unique.`,
        {
          sample: s.name,
        },
      );
    }
    seen.add(s.name);
    const n = s.dataset.counts.nCells;
    if (n <= LIMITS.minCellsPerSample) {
      throw new EngineError(
        'TOO_FEW_CELLS',
        `Sample "${s.name}" has ${n} cells; a sample needs more than ${LIMITS.minCellsPerSample}.`,
        { sample: s.name, cells: n, min: LIMITS.minCellsPerSample },
      );
    }
    if (n >= LIMITS.maxCellsPerSample) {
      throw new EngineError(
        'TOO_MANY_CELLS',
        `Sample "${s.name}" has ${n} cells; a sample must have fewer than ${LIMITS.maxCellsPerSample}. Split it into several samples.`,
        { sample: s.name, cells: n, max: LIMITS.maxCellsPerSample },
      );
    }
  }
  const species = new Set(samples.map((s) => s.species ?? params.species));
  if (species.size > 1 || !species.has(params.species)) {
    throw new EngineError(
      'MIXED_SPECIES',
      `The selected samples must all be ${params.species}; found ${[...species].join(', ')}.`,
      { expected: params.species, found: [...species].join(', ') },
    );
  }
}
