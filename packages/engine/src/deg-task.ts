import type { DegRow } from '@cellcloud/contracts/artifacts';
import type { CountMatrix } from '@cellcloud/formats/matrix';
import { EngineError } from './errors';
import { compareGroups, findMarkers } from './markers';
import { logNormalize } from './steps/normalize';

/**
 * The explorer's job-backed DE on a stored result's raw counts (genes × cells, CSC by cell):
 * log-normalized as the pipeline does, then either every group vs the rest (`codes[c]` = group
 * index, -1 = cell not in the grouping) or group A vs group B (cell indices).
 */
export type DegTaskInput =
  | { mode: 'cluster-markers'; codes: Int32Array; labels: string[] }
  | {
      mode: 'compare';
      groupA: ArrayLike<number>;
      groupB: ArrayLike<number>;
      names: { a: string; b: string };
    };

export function runDegTask(
  counts: CountMatrix,
  genes: string[],
  input: DegTaskInput,
  onProgress?: (f: number) => void,
): DegRow[] {
  if (genes.length !== counts.nGenes) {
    throw new EngineError(
      'INVALID_PARAMS',
      `The gene list has ${genes.length} names but the matrix has ${counts.nGenes} genes.`,
      {},
    );
  }
  const norm = logNormalize(counts);
  if (input.mode === 'compare') return compareGroups(norm, genes, input.groupA, input.groupB, input.names);
  if (input.codes.length !== counts.nCells) {
    throw new EngineError(
      'INVALID_PARAMS',
      `The grouping has ${input.codes.length} cells but the matrix has ${counts.nCells}.`,
      {},
    );
  }
  return findMarkers(norm, input.codes, input.labels, genes, onProgress);
}
