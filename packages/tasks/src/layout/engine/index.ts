import type { PcaResult } from '@cellcloud/engine/steps/pca';
import { NeighborsStep } from '@cellcloud/engine/steps/neighbors';
import { TSNE3D_MAX_CELLS, Tsne3dStep, TsneStep } from '@cellcloud/engine/steps/tsne';
import { Umap3dStep } from '@cellcloud/engine/steps/umap';
import { batchOnPcs } from '@cellcloud/engine/stream/run-streamed';
import { TaskError } from '@cellcloud/engine/tasks/kit';
import type { EngineTask, ResultHandle } from '@cellcloud/engine/tasks/kit';
import {
  LAYOUT_DATA_FILE,
  LAYOUT_FALLBACK_SEED,
  type LayoutKind,
  type LayoutParams,
  type LayoutSummary,
} from '../contract';
import { estimateMemoryBytes } from '../memory';
import { recomputedPcs } from './recompute-pcs';

/**
 * The layout task (`../contract.ts`): the analysis' own steps on the stored representation. The
 * in-memory BatchStep is given the stored PCs (or corrected PCs) with no correction and the
 * analysis' PC count (`batchOnPcs`, as the out-of-core run gives its PCs), so its representation
 * is the analysis' `batch` result; NeighborsStep, Umap3dStep, TsneStep and Tsne3dStep then run as
 * in runner.ts. Output: data/layout.f32.
 */

export const LAYOUT_FILE = LAYOUT_DATA_FILE;

/** The representation the analysis' graph used, as stored, with its PC count. */
async function representation(
  result: ResultHandle,
): Promise<{ name: string; pcs: PcaResult; nPcs: number; from: LayoutSummary['nPcsFrom'] }> {
  const rec = result.analysis;
  const method = rec?.batchCorrection;
  const corrected = method && method !== 'none' ? result.embedding(`pca_${method}`) : undefined;
  const stored = corrected ?? result.embedding('pca');
  if (stored) {
    const name = corrected ? `pca_${method}` : 'pca';
    const nPcs = Math.min(rec?.nPcsUsed ?? stored.dims, stored.dims);
    const pcs: PcaResult = {
      pcs: Float64Array.from(stored.values),
      nComputed: stored.dims,
      // read by pcsToUse only for pcValue 'auto'; the count is given
      varianceRatio: new Float64Array(stored.dims),
    };
    return { name, pcs, nPcs, from: rec?.nPcsUsed ? 'analysis' : 'allStored' };
  }
  // no stored PCs (an uploaded h5ad): the analysis' PCA first, from the counts when they are at hand
  let counts;
  try {
    counts = result.counts();
  } catch {
    throw new TaskError('layout.noPcs', 'This result has no principal components (obsm X_pca).');
  }
  const r = recomputedPcs(counts);
  return { name: 'recomputed', pcs: r.pcs, nPcs: r.nPcs, from: 'recomputed' };
}

/** The layout's coordinates, row-major nCells × dims, exactly as the analysis' step of that kind. */
export async function computeLayout(
  pcs: PcaResult,
  nPcs: number,
  layout: LayoutKind,
  seed: number,
  progress: (fraction: number, step: string) => void,
): Promise<{ dims: number; values: Float32Array }> {
  const n = pcs.pcs.length / pcs.nComputed;
  // no correction: the given PCs are the representation (corrected ones when stored so)
  const batch = await batchOnPcs(
    pcs,
    new Int32Array(n),
    Int32Array.from({ length: n }, (_, i) => i),
  );
  const neighbors = new NeighborsStep(batch);
  const steps: { free(): void }[] = [neighbors];
  try {
    await batch.compute(
      {
        batchEffectRemoval: { enabled: false, method: 'harmony', batchKey: 'Sample ID' },
        seed,
        pcValue: nPcs,
      },
      () => {},
    );
    progress(0.1, 'neighbors');
    await neighbors.compute({}, () => {});
    const at = (from: number, to: number, step: string) => (f: number) =>
      progress(from + (to - from) * f, step);
    if (layout === 'umap3D') {
      const umap3d = new Umap3dStep(batch, neighbors);
      steps.push(umap3d);
      await umap3d.compute({ seed }, at(0.2, 0.95, 'umap3D'));
      return umap3d.value;
    }
    const tsne = new TsneStep(batch, neighbors);
    steps.push(tsne);
    await tsne.compute({ seed }, at(0.2, layout === 'tsne' ? 0.95 : 0.5, 'tsne'));
    if (layout === 'tsne') return tsne.value;
    const tsne3d = new Tsne3dStep(batch, tsne);
    steps.push(tsne3d);
    await tsne3d.compute({ seed }, at(0.5, 0.95, 'tsne3D'));
    if (!tsne3d.value) throw new Error('layout: the 3-D t-SNE step made no layout');
    return tsne3d.value;
  } finally {
    for (const s of steps.reverse()) s.free();
  }
}

export const engine: EngineTask<LayoutParams, LayoutSummary> = {
  name: 'layout',
  estimateMemoryBytes,
  async run({ result, params, onProgress, sink, signal }) {
    const progress = (fraction: number, step: string) => {
      if (signal?.aborted) throw new TaskError('common.cancelled', 'The analysis was cancelled.');
      onProgress({ fraction, step });
    };
    const n = result.nCells;
    if (params.layout === 'tsne3D' && n > TSNE3D_MAX_CELLS)
      throw new TaskError(
        'layout.tsne3dTooManyCells',
        `The 3-D t-SNE is made for up to ${TSNE3D_MAX_CELLS} cells; this result has ${n}.`,
        { cells: n, max: TSNE3D_MAX_CELLS },
      );
    if (n < 4) throw new TaskError('layout.tooFewCells', `Only ${n} cells.`, { cells: n, min: 4 });
    progress(0.02, 'representation');
    const rep = await representation(result);
    // absent: the analysis' own seed, so the layout is the one the analysis would have made
    const seed = params.seed ?? result.analysis?.seed ?? LAYOUT_FALLBACK_SEED;
    const out = await computeLayout(rep.pcs, rep.nPcs, params.layout, seed, progress);
    progress(0.97, 'write');
    await sink.data(
      LAYOUT_FILE,
      new Uint8Array(out.values.buffer, out.values.byteOffset, out.values.byteLength),
    );
    return {
      layout: params.layout,
      dims: out.dims,
      nCells: n,
      representation: rep.name,
      nPcs: rep.nPcs,
      nPcsFrom: rep.from,
      seed,
      file: `data/${LAYOUT_FILE}`,
    };
  },
};
