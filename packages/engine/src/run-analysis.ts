import type { AnalysisParams, AnalysisParamsInput } from '@cellcloud/contracts/analysis-params';
import type { DegRow, LayoutsNotComputed } from '@cellcloud/contracts/artifacts';
import type { CellColumn, CountMatrix } from '@cellcloud/formats/matrix';
import { carryInputColumns } from './carry-input';
import { AnalysisRunner } from './runner';
import { scoreVariances } from './steps/pca';
import type { SampleAmbient } from './steps/ambient';
import type { SampleDoublets } from './steps/doublets';
import type { Embedding } from './steps/embeddings';
import type { SampleFilterSummary } from './steps/filter';
import type { ProgressCallback, StepName } from './steps/step';
import type { SampleInput } from './validate';
import { engineVersion } from './version';
import { collectGarbage } from './collect-garbage';
import type { CheckpointOptions } from './checkpoint';

/** The QC report: filter thresholds and before/after counts per sample, doublet and ambient-RNA results. */
export interface QcReport {
  samples: SampleFilterSummary[];
  mitochondrialThreshold: number;
  doublets: SampleDoublets[];
  ambient: SampleAmbient[];
  nPcsUsed: number;
  pcaVarianceRatio: number[];
  batchCorrection: 'none' | 'harmony' | 'mnn';
  /** The run's random seed (params.seed): a layout computed later on demand takes it (tasks/layout). */
  seed: number;
}

/** Everything the writers need: matrices, per-cell columns, embeddings, markers, QC. */
export interface AnalysisResult {
  engineVersion: string;
  params: AnalysisParams;
  species: string;
  sampleNames: string[];
  counts: CountMatrix;
  /** log1p(CP10k), same layout as `counts`. */
  normalized: CountMatrix;
  geneIds: string[];
  geneSymbols: string[];
  barcodes: string[];
  /** Per-cell columns: cluster, Sample ID, QC metrics (scanpy names), doublet score, contamination, cell cycle. */
  obs: Record<string, CellColumn>;
  highlyVariable: Uint8Array;
  /** pca (all computed PCs), pcaCorrected (after Harmony/MNN), umap, tsne; row-major. */
  embeddings: Record<string, Embedding>;
  clusterLabels: string[];
  markers: DegRow[];
  qc: QcReport;
  /** Seconds spent per step. */
  timings: Partial<Record<StepName, number>>;
  /** Steps taken from a checkpoint of an earlier, interrupted run (RunAnalysisOptions.checkpoint). */
  resumed?: StepName[];
  /** Layouts left out by default and why (the out-of-core run above its cell limit); the manifest's field. */
  layoutsNotComputed?: LayoutsNotComputed;
}

export interface RunAnalysisOptions {
  /**
   * The caller hands its sample count matrices over: each is replaced by an empty matrix as soon
   * as it is merged, so the samples and the merged copy are not all held at once (large inputs).
   */
  releaseSamples?: boolean;
  /** Precomputed PCs (row-major nCells × dims) used instead of the PCA (sub-clustering without re-reduction). */
  pcs?: { dims: number; values: Float32Array | Float64Array };
  /** When the UMAP layouts start (RunnerOptions.layoutsFrom; default: as soon as the neighbour graph exists). */
  layoutsFrom?: 'neighbors' | 'markers';
  /**
   * Called once the markers are done, with the result so far (no UMAP / t-SNE embeddings yet),
   * and run while the embeddings compute (RunnerOptions.whileEmbeddings): e.g. `startOutputs`
   * writing the matrices, per-cell columns and markers. runAnalysis returns after it settles.
   */
  whileEmbeddings?: (early: AnalysisResult) => Promise<void>;
  /**
   * Checkpoint after each finished step and resume from the last one of the same key
   * (RunnerOptions.checkpoint, checkpoint.ts); the result lists the steps resumed.
   */
  checkpoint?: CheckpointOptions;
}

/**
 * Runs the whole pipeline once and returns the result (WebAssembly memory is freed). The runner is
 * one-shot: intermediate copies of the counts are consumed in place as soon as they are used.
 */
export async function runAnalysis(
  samples: SampleInput[],
  paramsInput: AnalysisParamsInput | unknown,
  onProgress?: ProgressCallback,
  options: RunAnalysisOptions = {},
): Promise<AnalysisResult> {
  const runner: AnalysisRunner = new AnalysisRunner({
    oneShot: true,
    releaseSamples: options.releaseSamples ?? false,
    layoutsFrom: options.layoutsFrom,
    checkpoint: options.checkpoint,
    whileEmbeddings:
      options.whileEmbeddings &&
      ((): Promise<void> => options.whileEmbeddings!(collect(runner, runner.params!, {}, true))),
  });
  if (options.pcs) {
    const pcs = Float64Array.from(options.pcs.values);
    const variances = scoreVariances(pcs, options.pcs.dims);
    const total = variances.reduce((a, b) => a + b, 0);
    runner.pca.preset = {
      pcs,
      nComputed: options.pcs.dims,
      varianceRatio: variances.map((v) => v / Math.max(1e-12, total)),
    };
  }
  const timings: Partial<Record<StepName, number>> = {};
  let current: StepName | undefined;
  let since = performance.now();
  try {
    const params = await runner.run(samples, paramsInput, (e) => {
      if (e.step !== current) {
        if (current) timings[current] = (performance.now() - since) / 1000;
        current = e.step;
        since = performance.now();
      }
      onProgress?.(e);
    });
    if (current) timings[current] = (performance.now() - since) / 1000;
    return collect(runner, params, timings);
  } finally {
    runner.free();
    // what the freed steps held (PCs, neighbour lists, …) is collected before the caller writes
    collectGarbage();
  }
}

/** The result from the runner's steps; `early`: before the embeddings (only the PCs in `embeddings`). */
function collect(
  r: AnalysisRunner,
  params: AnalysisParams,
  timings: AnalysisResult['timings'],
  early = false,
): AnalysisResult {
  const data = r.ambient.value;
  const doublets = r.doublets.value;
  const { codes, labels } = r.clusters.value;
  const pca = r.pca.value;
  const reduced = r.batch.value;
  const sampleNames = r.inputs.value.sampleNames;
  const obs: Record<string, CellColumn> = {
    cluster: { kind: 'categorical', values: Array.from(codes, (c) => labels[c]) },
    'Sample ID': { kind: 'categorical', values: Array.from(data.sampleOfCell, (s) => sampleNames[s]) },
    n_genes_by_counts: { kind: 'numeric', values: data.qc.nGenes },
    total_counts: { kind: 'numeric', values: data.qc.nUmi },
    pct_counts_mito: { kind: 'numeric', values: data.qc.pctMito },
    pct_counts_ribo: { kind: 'numeric', values: data.qc.pctRibo },
  };
  if (doublets.doubletScore)
    obs.doublet_score = { kind: 'numeric', values: Float64Array.from(doublets.doubletScore) };
  if (data.contamination)
    obs.contamination = { kind: 'numeric', values: Float64Array.from(data.contamination) };
  const cc = r.cellCycle.value.scores;
  if (cc) {
    obs.S_score = { kind: 'numeric', values: Float64Array.from(cc.s) };
    obs.G2M_score = { kind: 'numeric', values: Float64Array.from(cc.g2m) };
    obs.phase = { kind: 'categorical', values: cc.phase };
  }
  const embeddings: Record<string, Embedding> = {
    pca: { dims: pca.nComputed, values: Float32Array.from(pca.pcs) },
  };
  if (!early) {
    embeddings.umap = r.umap.value;
    embeddings.tsne = r.tsne.value;
    embeddings.umap3D = r.umap3d.value;
    if (r.tsne3d.value) embeddings.tsne3D = r.tsne3d.value; // up to 3000 cells (steps/tsne.ts)
  }
  if (reduced.corrected) embeddings.pcaCorrected = { dims: pca.nComputed, values: reduced.corrected };
  carryInputColumns(r.inputs.value, data.barcodes, obs, embeddings); // uploaded labels/embeddings (issue 13)
  const summary = data.summary;
  return {
    engineVersion: engineVersion(),
    params,
    species: params.species,
    sampleNames,
    counts: data.counts,
    // dropped after the markers in one-shot runs (runner.ts): recomputed once the embeddings are done
    normalized: r.normalize.value,
    geneIds: data.geneIds,
    geneSymbols: data.geneSymbols,
    barcodes: data.barcodes,
    obs,
    highlyVariable: r.hvg.value.selected,
    embeddings,
    clusterLabels: labels,
    markers: r.markers.value,
    qc: {
      samples: summary,
      mitochondrialThreshold: summary[0]?.thresholds.maxMito ?? params.mitochondrialContent.max,
      doublets: doublets.doublets,
      ambient: data.ambient,
      nPcsUsed: reduced.dims,
      pcaVarianceRatio: Array.from(pca.varianceRatio),
      batchCorrection: reduced.method,
      seed: params.seed,
    },
    timings,
    resumed: r.resumed,
  };
}
