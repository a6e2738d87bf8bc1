import type { AnalysisParams, AnalysisParamsInput } from '@cellcloud/contracts/analysis-params';
import type { LayoutsNotComputed } from '@cellcloud/contracts/artifacts';
import type { CellColumn } from '@cellcloud/formats/matrix';
import { collectGarbage } from '../collect-garbage';
import { EngineError } from '../errors';
import { MESSAGES, WEIGHTS } from '../runner';
import { BatchStep } from '../steps/batch';
import { ClustersStep } from '../steps/clusters';
import type { Embedding } from '../steps/embeddings';
import type { InputsStep } from '../steps/inputs';
import { NeighborsStep } from '../steps/neighbors';
import type { PcaResult, PcaStep } from '../steps/pca';
import type { CountsSource } from '../steps/sources';
import { Step, type ProgressCallback, type StepName, type StepProgress } from '../steps/step';
import { Tsne3dStep, TsneStep } from '../steps/tsne';
import { Umap3dStep, UmapStep } from '../steps/umap';
import { parseParams, validateSamples, type SampleInput } from '../validate';
import { engineVersion } from '../version';
import { streamedCellCycle } from './cell-cycle';
import { streamedDoublets } from './doublets';
import { streamedHvg } from './hvg';
import { streamedMarkers, streamedMarkersWorkersExited } from './markers';
import { mergeStreamed } from './merge';
import { streamedPca } from './pca';
import { streamedFilter, streamedQcMetrics } from './qc';
import { countStored, selectCells, selectGenes, selection } from './select';
import type { StreamedAnalysisResult, StreamedSample } from './types';
import { logNormalizedCells, logNormalizedGenes } from './views';

/**
 * Above this many cells the streamed run computes only the 2-D UMAP of the four layouts: t-SNE,
 * 3-D UMAP and 3-D t-SNE are left for the user to ask for (docs/engine-scaling.md, "Layouts
 * above 200k cells"). The layouts were 100–123 s of a 216–266 s 100k-cell job (issue 33) and grow
 * at least linearly with the cells, while the 1M-cell budget is 25 minutes for the whole job.
 */
export const STREAMED_ALL_LAYOUTS_MAX_CELLS = 200_000;

export interface RunStreamedOptions {
  /**
   * Which layouts to compute: 'all' (UMAP, t-SNE, 3-D UMAP, 3-D t-SNE up to its own limit), 'umap'
   * (the 2-D UMAP only), 'none' (stop after the markers: benchmarks, tests). Default: 'all' up to
   * STREAMED_ALL_LAYOUTS_MAX_CELLS input cells, 'umap' above.
   */
  layouts?: 'all' | 'umap' | 'none';
  /** The cell limit of the default `layouts` (tests); STREAMED_ALL_LAYOUTS_MAX_CELLS unless given. */
  allLayoutsMaxCells?: number;
}

/**
 * The in-memory BatchStep on given PCs (the streamed run's, or a benchmark's): its upstream steps
 * (inputs, the kept cells and their samples, the PCA) hold the given results.
 */
export async function batchOnPcs(
  pca: PcaResult,
  sampleOfCell: Int32Array,
  cellIndex: Int32Array,
): Promise<BatchStep> {
  const inputs = new Given('inputs', { columns: {} }) as unknown as InputsStep;
  const source = new Given('doublets', {
    counts: { nCells: cellIndex.length },
    sampleOfCell,
    cellIndex,
  }) as unknown as CountsSource;
  const pcaStep = new Given('pca', pca) as unknown as PcaStep;
  for (const s of [inputs, source, pcaStep]) await (s as Step<unknown, unknown>).compute({});
  return new BatchStep(inputs, source, pcaStep);
}

/** A step whose result is given (the streamed run's upstream of the in-memory steps it reuses). */
class Given<R> extends Step<Record<string, never>, R> {
  constructor(
    readonly name: StepName,
    private readonly given: R,
  ) {
    super([]);
  }

  protected run(): R {
    return this.given;
  }
}

/**
 * The default pipeline on streamed counts (issue 33, docs/engine-scaling.md): samples merged as
 * views, QC in one pass, filters as masks, Scrublet one sample at a time, normalization computed
 * where it is read, HVG statistics in two passes, the cell-cycle scores in two, the PCA on the HVG submatrix; then the in-memory
 * steps on the PCs (batch correction, neighbours, clusters, layouts). Resident memory grows with
 * cells × (PCs + neighbours) plus the HVG submatrix and one sample for Scrublet, not with every
 * non-zero. Where the mathematics is the same the result is runAnalysis' (test/stream).
 * Not streamed yet (a clear error): ambient RNA removal, cell-cycle regression, Pearson HVGs.
 */
export async function runAnalysisStreamed(
  samples: StreamedSample[],
  paramsInput: AnalysisParamsInput | unknown,
  onProgress?: ProgressCallback,
  options: RunStreamedOptions = {},
): Promise<StreamedAnalysisResult> {
  const params = parseParams(paramsInput);
  validateSamples(
    samples.map(
      (s) => ({ name: s.name, dataset: { counts: { nCells: s.cells.nCells } } }) as unknown as SampleInput,
    ),
    params,
  );
  rejectNotStreamed(params);
  const nInput = samples.reduce((a, s) => a + s.cells.nCells, 0);
  const maxCells = options.allLayoutsMaxCells ?? STREAMED_ALL_LAYOUTS_MAX_CELLS;
  const layouts = options.layouts ?? (nInput <= maxCells ? 'all' : 'umap');
  const allLayouts = layouts === 'all';
  // said in the manifest, so the explorer can tell why t-SNE and the 3-D layouts are missing
  const layoutsNotComputed: LayoutsNotComputed | undefined =
    options.layouts === undefined && !allLayouts
      ? { names: ['tsne', 'umap3D', 'tsne3D'], reason: 'cells', cells: nInput, maxCells }
      : undefined;
  const plan: StepName[] = ['inputs', 'qc', 'filter', 'doublets', 'normalize', 'hvg', 'cellCycle', 'pca'];
  plan.push('batch');
  plan.push('neighbors', 'clusters', 'markers');
  if (layouts !== 'none') plan.push('umap');
  if (allLayouts) plan.push('tsne', 'tsne3D', 'umap3D');
  const total = plan.reduce((a, s) => a + (WEIGHTS[s] ?? 1), 0);
  const timings: Partial<Record<StepName, number>> = {};
  let done = 0;
  const step = async <T>(name: StepName, run: (progress: StepProgress) => Promise<T> | T): Promise<T> => {
    const w = WEIGHTS[name] ?? 1;
    const report: StepProgress = (f, message) =>
      onProgress?.({ fraction: (done + w * Math.min(1, Math.max(0, f))) / total, step: name, message });
    report(0, MESSAGES[name]);
    const t0 = performance.now();
    const out = await run(report);
    timings[name] = (performance.now() - t0) / 1000;
    report(1, MESSAGES[name]);
    done += w;
    return out;
  };

  const merged = await step('inputs', () => mergeStreamed(samples));
  const qc = await step('qc', () => streamedQcMetrics(merged.cells, merged.geneSymbols));
  const filter = await step('filter', () =>
    streamedFilter(merged.cells, qc, merged.sampleOfCell, merged.sampleNames, params),
  );
  const nSamples = merged.sampleNames.length;
  const filteredStart = sampleStarts(filter.cellIndex, merged.sampleOfCell, nSamples);
  const doublets = await step('doublets', async (progress) => {
    if (!params.doubletDetectionAndRemoval) return undefined;
    const filtered = selectCells(
      merged.cells,
      selection(Uint32Array.from(filter.cellIndex), filter.keepGene),
    );
    return streamedDoublets(filtered, filteredStart, merged.sampleNames, params.seed, progress);
  });
  // the cells every later step reads: kept by the filters and not predicted doublets
  const keptPos: number[] = [];
  for (let i = 0; i < filter.cellIndex.length; i++) if (!doublets || doublets.keep[i]) keptPos.push(i);
  const cellIndex = Uint32Array.from(keptPos, (i) => filter.cellIndex[i]);
  const sel = selection(cellIndex, filter.keepGene);
  const views = await step('normalize', () => {
    const counts = selectCells(merged.cells, sel);
    const stored = countStored(counts);
    counts.nnz = stored.nnz;
    const countsGenes = selectGenes(merged.genes, sel, stored.geneNnz);
    return {
      stored,
      counts,
      countsGenes,
      normalized: logNormalizedCells(counts, stored.totals, stored.kind),
      normalizedGenes: logNormalizedGenes(countsGenes, stored.totals, stored.kind),
    };
  });
  const hvg = await step('hvg', () => streamedHvg(views.counts, views.normalized, views.stored.kind, params));
  const geneIds = Array.from(sel.genes, (g) => merged.geneIds[g]);
  const geneSymbols = Array.from(sel.genes, (g) => merged.geneSymbols[g]);
  const cellCycle = await step('cellCycle', () =>
    streamedCellCycle(views.normalized, geneSymbols, params.seed),
  );
  const pca = await step('pca', () => streamedPca(views.normalized, hvg.selected, views.stored.geneNnz));

  // the in-memory steps on the PCs, their upstream results given
  const sampleOfCell = Int32Array.from(cellIndex, (c) => merged.sampleOfCell[c]);
  const batch = await batchOnPcs(pca, sampleOfCell, Int32Array.from(cellIndex));
  const neighbors = new NeighborsStep(batch);
  const clusters = new ClustersStep(neighbors);
  const umap = new UmapStep(batch, neighbors);
  const umap3d = new Umap3dStep(batch, neighbors);
  const tsne = new TsneStep(batch, neighbors);
  const tsne3d = new Tsne3dStep(batch, tsne);
  const seed = { seed: params.seed };
  const embeddings: Record<string, Embedding> = {
    pca: { dims: pca.nComputed, values: Float32Array.from(pca.pcs) },
  };
  try {
    await step('batch', (p) =>
      batch.compute(
        { batchEffectRemoval: params.batchEffectRemoval, seed: params.seed, pcValue: params.pcValue },
        p,
      ),
    );
    await step('neighbors', (p) => neighbors.compute({}, p));
    // the layouts start in worker threads once the graph exists, as in runner.ts
    if (layouts !== 'none') umap.start(seed);
    if (allLayouts) umap3d.start(seed);
    await step('clusters', (p) =>
      clusters.compute({ clusterResolution: params.clusterResolution, algorithm: params.algorithm }, p),
    );
    const markers = await step('markers', async (p) => {
      const rows = streamedMarkers({
        genes: views.normalizedGenes,
        clusterCodes: clusters.value.codes,
        clusterLabels: clusters.value.labels,
        geneIds,
        geneSymbols,
        params,
        progress: (f) => p(f, 'Wilcoxon rank-sum test per gene'),
      });
      // its worker thread holds block buffers until it exits (as MarkersStep waits for its own)
      await streamedMarkersWorkersExited();
      return rows;
    });
    if (allLayouts) {
      await step('tsne', (p) => tsne.compute(seed, p));
      embeddings.tsne = tsne.value;
      await step('tsne3D', (p) => tsne3d.compute(seed, p));
      if (tsne3d.value) embeddings.tsne3D = tsne3d.value;
    }
    if (layouts !== 'none') {
      await step('umap', (p) => umap.compute(seed, p));
      embeddings.umap = umap.value;
    }
    if (allLayouts) {
      await step('umap3D', (p) => umap3d.compute(seed, p));
      embeddings.umap3D = umap3d.value;
    }
    const reduced = batch.value;
    if (reduced.corrected) embeddings.pcaCorrected = { dims: pca.nComputed, values: reduced.corrected };
    const { codes, labels } = clusters.value;
    const pick = (a: Float64Array) => Float64Array.from(cellIndex, (c) => a[c]);
    const obs: Record<string, CellColumn> = {
      cluster: { kind: 'categorical', values: Array.from(codes, (c) => labels[c]) },
      'Sample ID': { kind: 'categorical', values: Array.from(sampleOfCell, (s) => merged.sampleNames[s]) },
      n_genes_by_counts: { kind: 'numeric', values: pick(qc.nGenes) },
      total_counts: { kind: 'numeric', values: pick(qc.nUmi) },
      pct_counts_mito: { kind: 'numeric', values: pick(qc.pctMito) },
      pct_counts_ribo: { kind: 'numeric', values: pick(qc.pctRibo) },
    };
    if (doublets)
      obs.doublet_score = { kind: 'numeric', values: Float64Array.from(keptPos, (i) => doublets.score[i]) };
    if (cellCycle) {
      obs.S_score = { kind: 'numeric', values: Float64Array.from(cellCycle.s) };
      obs.G2M_score = { kind: 'numeric', values: Float64Array.from(cellCycle.g2m) };
      obs.phase = { kind: 'categorical', values: cellCycle.phase };
    }
    const summary = filter.summary;
    return {
      engineVersion: engineVersion(),
      params,
      species: params.species,
      sampleNames: merged.sampleNames,
      counts: views.counts,
      countsGenes: views.countsGenes,
      normalized: views.normalized,
      normalizedGenes: views.normalizedGenes,
      geneIds,
      geneSymbols,
      barcodes: Array.from(cellIndex, (c) => merged.barcodes[c]),
      obs,
      highlyVariable: hvg.selected,
      embeddings,
      clusterLabels: labels,
      markers,
      qc: {
        samples: summary,
        mitochondrialThreshold: summary[0]?.thresholds.maxMito ?? params.mitochondrialContent.max,
        doublets: doublets?.doublets ?? [],
        ambient: [],
        nPcsUsed: reduced.dims,
        pcaVarianceRatio: Array.from(pca.varianceRatio),
        batchCorrection: reduced.method,
        seed: params.seed,
      },
      timings,
      ...(layoutsNotComputed ? { layoutsNotComputed } : {}),
    };
  } finally {
    await Promise.all([umap.cancel(), umap3d.cancel()]);
    for (const s of [neighbors, clusters, umap, umap3d, tsne, tsne3d]) s.free();
    collectGarbage();
  }
}

/** First position of each sample in `cells` (merged indices, increasing; samples contiguous); last: cells.length. */
function sampleStarts(cells: Int32Array, sampleOfCell: Int32Array, nSamples: number): number[] {
  const starts = new Array<number>(nSamples + 1).fill(0);
  for (const c of cells) starts[sampleOfCell[c] + 1]++;
  for (let s = 0; s < nSamples; s++) starts[s + 1] += starts[s];
  return starts;
}

/** Options whose step has no streamed version yet: a clear error rather than a silent difference. */
function rejectNotStreamed(params: AnalysisParams): void {
  const off: [boolean, string][] = [
    [params.ambientRnaRemoval.enabled, 'ambient RNA removal'],
    [params.removeCellCycleEffects, 'cell-cycle regression'],
  ];
  for (const [on, what] of off)
    if (on)
      throw new EngineError(
        'INVALID_PARAMS',
        `${what} is not available for out-of-core analyses yet; turn it off.`,
        {
          option: what,
        },
      );
}
