import type { AnalysisParams, AnalysisParamsInput } from '@cellcloud/contracts/analysis-params';
import { decodeCheckpoint, encodeCheckpoint, type CheckpointOptions } from './checkpoint';
import { collectGarbage } from './collect-garbage';
import { AmbientStep } from './steps/ambient';
import { BatchStep } from './steps/batch';
import { CellCycleStep } from './steps/cell-cycle';
import { ClustersStep } from './steps/clusters';
import { Tsne3dStep, TsneStep } from './steps/tsne';
import { Umap3dStep, UmapStep } from './steps/umap';
import { DoubletStep } from './steps/doublets';
import { FilterStep } from './steps/filter';
import { HvgStep } from './steps/hvg';
import { InputsStep } from './steps/inputs';
import { MarkersStep } from './steps/markers';
import { NeighborsStep } from './steps/neighbors';
import { NormalizeStep } from './steps/normalize';
import { PcaStep } from './steps/pca';
import { QcStep } from './steps/qc';
import type { ProgressCallback, Step, StepName } from './steps/step';
import { parseParams, validateSamples, type SampleInput } from './validate';

/** Relative cost of each step, for the overall progress fraction. */
export const WEIGHTS: Partial<Record<StepName, number>> = {
  inputs: 2,
  qc: 1,
  filter: 2,
  doublets: 10,
  ambient: 10,
  normalize: 2,
  hvg: 2,
  cellCycle: 2,
  pca: 10,
  batch: 5,
  neighbors: 8,
  clusters: 5,
  umap: 15,
  tsne: 15,
  umap3D: 15,
  tsne3D: 10,
  markers: 10,
};

export const MESSAGES: Record<StepName, string> = {
  inputs: 'Merging samples',
  qc: 'Computing QC metrics',
  filter: 'Filtering cells',
  doublets: 'Detecting doublets',
  ambient: 'Estimating ambient RNA',
  normalize: 'Normalizing',
  hvg: 'Selecting highly variable genes',
  cellCycle: 'Scoring the cell cycle',
  pca: 'Running PCA',
  batch: 'Correcting batch effects',
  neighbors: 'Finding nearest neighbours',
  clusters: 'Clustering',
  umap: 'Computing UMAP',
  tsne: 'Computing t-SNE',
  umap3D: 'Computing 3D UMAP',
  tsne3D: 'Computing 3D t-SNE',
  markers: 'Finding cluster markers',
};

/**
 * The standard pipeline as a fixed sequence of step objects (markers come right after clustering,
 * before the four embeddings; the 2D and 3D UMAP layouts start in worker threads as soon as the
 * neighbour graph exists, run alongside clustering, markers and the t-SNE steps on this thread,
 * and are joined by the umap / umap3D steps after them). `run` validates the parameters and
 * samples, then computes each step in order; on a later call only steps whose parameters (or
 * upstream results) changed are recomputed. Call `free()` when done (WebAssembly memory).
 */
export interface RunnerOptions {
  /**
   * One-shot run (runAnalysis): each step may consume what only it still needs — the merged input
   * is filtered in place, doublets are dropped in place — so one copy of the counts is held
   * instead of three. Such a runner cannot run a second time.
   */
  oneShot?: boolean;
  /** With `oneShot`: the caller hands its sample matrices over; each is emptied once merged. */
  releaseSamples?: boolean;
  /**
   * Where the 2D and 3D UMAP layouts start in their worker threads: 'neighbors' (default) as soon
   * as the neighbour graph exists, alongside clustering and markers; 'markers' after the markers
   * step, so that "read → markers" is timed without them (bench:engine BENCH_STOP=markers).
   */
  layoutsFrom?: 'neighbors' | 'markers';
  /**
   * Started (not awaited) once the markers step is done, while the t-SNE (this thread, giving the
   * event loop a turn each iteration) and the UMAP layouts (worker threads) run; `run` awaits it at
   * the end. runAnalysis writes the outputs that do not depend on the embeddings here.
   */
  whileEmbeddings?: () => Promise<void>;
  /**
   * Checkpoints (checkpoint.ts, issue 34): the state of the finished steps is saved after each
   * step from the filter on, and a run that finds a checkpoint of the same key restores it and
   * skips the steps it holds (`resumed`).
   */
  checkpoint?: CheckpointOptions;
}

/** Steps after which no checkpoint is taken: the merged input is cheap to redo from the samples. */
const NO_CHECKPOINT_AFTER: ReadonlySet<StepName> = new Set(['inputs', 'qc']);

export class AnalysisRunner {
  readonly inputs = new InputsStep();
  readonly qc = new QcStep(this.inputs);
  readonly filter = new FilterStep(this.inputs, this.qc);
  readonly doublets = new DoubletStep(this.filter);
  readonly ambient = new AmbientStep(this.doublets);
  readonly normalize = new NormalizeStep(this.ambient);
  readonly hvg = new HvgStep(this.ambient, this.normalize);
  readonly cellCycle = new CellCycleStep(this.ambient, this.normalize, this.hvg);
  readonly pca = new PcaStep(this.normalize, this.hvg, this.cellCycle);
  readonly batch = new BatchStep(this.inputs, this.ambient, this.pca);
  readonly neighbors = new NeighborsStep(this.batch);
  readonly clusters = new ClustersStep(this.neighbors);
  readonly umap = new UmapStep(this.batch, this.neighbors);
  readonly tsne = new TsneStep(this.batch, this.neighbors);
  readonly tsne3d = new Tsne3dStep(this.batch, this.tsne);
  readonly umap3d = new Umap3dStep(this.batch, this.neighbors);
  readonly markers = new MarkersStep(this.ambient, this.normalize, this.clusters);
  params: AnalysisParams | undefined;
  /** Steps recomputed by the last run (for tests and logs). */
  lastComputed: StepName[] = [];
  /** Steps the last run took from a checkpoint instead of computing them. */
  resumed: StepName[] = [];
  private runs = 0;

  constructor(private readonly options: RunnerOptions = {}) {
    const oneShot = options.oneShot ?? false;
    this.inputs.inPlace = oneShot;
    this.inputs.releaseSamples = oneShot && (options.releaseSamples ?? false);
    this.filter.inPlace = oneShot;
    this.doublets.inPlace = oneShot;
  }

  /** Sets new samples (everything recomputes) — omit on a re-run with changed parameters only. */
  async run(
    samples: SampleInput[] | undefined,
    paramsInput: AnalysisParamsInput | unknown,
    onProgress?: ProgressCallback,
  ) {
    const params = parseParams(paramsInput);
    if (this.options.oneShot && this.runs > 0)
      throw new Error('a one-shot AnalysisRunner runs once; create a new runner');
    this.runs++;
    if (samples) {
      validateSamples(samples, params);
      this.inputs.setInputs(samples);
    }
    this.params = params;
    const early = (this.options.layoutsFrom ?? 'neighbors') === 'neighbors';
    const startLayouts = () => {
      this.umap.start(pick(params, 'seed'));
      this.umap3d.start(pick(params, 'seed'));
    };
    // [step, its parameter slice, what to start just before it]
    const plan: [Step<never, unknown>, unknown, (() => void)?][] = [
      [this.inputs, {}],
      [this.qc, {}],
      [
        this.filter,
        pick(params, 'expressedGeneRange', 'expressedUmiRange', 'mitochondrialContent', 'ribosomalContent'),
      ],
      [this.doublets, pick(params, 'doubletDetectionAndRemoval', 'seed')],
      [this.ambient, pick(params, 'ambientRnaRemoval', 'seed')],
      [this.normalize, {}],
      [this.hvg, pick(params, 'numberOfHighlyVariableGenes', 'hvgMethod')],
      [this.cellCycle, pick(params, 'removeCellCycleEffects', 'species', 'seed')],
      [this.pca, pick(params, 'seed')],
      [this.batch, pick(params, 'batchEffectRemoval', 'seed', 'pcValue')],
      [this.neighbors, {}],
      // the 2D and 3D UMAP layouts (worker threads) need only the neighbour graph: they start
      // before the clustering and run alongside it, the markers and the t-SNE steps (this thread);
      // the umap / umap3D steps join them
      [this.clusters, pick(params, 'clusterResolution', 'algorithm'), early ? startLayouts : undefined],
      // markers right after the clusters: "read → markers" is a milestone before the embeddings
      [this.markers, {}],
      [this.tsne, pick(params, 'seed'), early ? undefined : startLayouts],
      [this.tsne3d, pick(params, 'seed')],
      [this.umap, pick(params, 'seed')],
      [this.umap3d, pick(params, 'seed')],
    ];
    const total = plan.reduce((a, [s]) => a + (WEIGHTS[s.name] ?? 1), 0);
    let done = 0;
    this.lastComputed = [];
    this.resumed = await this.resume(plan);
    let alongside: Promise<void> | undefined;
    try {
      for (const [index, [step, stepParams, before]] of plan.entries()) {
        const w = WEIGHTS[step.name] ?? 1;
        const report = (f: number, message: string) =>
          onProgress?.({
            fraction: (done + w * Math.min(1, Math.max(0, f))) / total,
            step: step.name,
            message,
          });
        report(0, MESSAGES[step.name]);
        before?.();
        if (index < this.resumed.length) {
          // taken from the checkpoint: restored as computed with these parameters
        } else if (await (step as Step<unknown, unknown>).compute(stepParams, report)) {
          this.lastComputed.push(step.name);
          if (index < plan.length - 1) await this.saveCheckpoint(plan, index);
        }
        report(1, MESSAGES[step.name]);
        done += w;
        // one-shot: the normalized values are not read again before the result is collected
        // (writing alongside reads them at once: kept then). The markers step has waited for its
        // worker thread to exit; a full collection frees the shared buffer before the t-SNE and the
        // layouts allocate (V8 would otherwise keep it until its next full collection, seconds later)
        if (this.options.oneShot && step === this.markers && !this.options.whileEmbeddings) {
          this.normalize.dropValues();
          // after one turn of the event loop (what the ended job kept, e.g. WeakRef targets, is let go)
          await new Promise((r) => setImmediate(r));
          collectGarbage();
        }
        if (step === this.markers && this.options.whileEmbeddings) alongside = this.options.whileEmbeddings();
      }
      await alongside;
      // one-shot: the layouts' and the t-SNE's temporaries are garbage now; collected before the
      // caller recomputes the normalized values (runAnalysis' collect) and writes the outputs
      if (this.options.oneShot) collectGarbage();
    } catch (e) {
      // layouts started ahead are not joined; work started alongside ends before the error is thrown
      await Promise.all([this.umap.cancel(), this.umap3d.cancel(), alongside?.catch(() => undefined)]);
      throw e;
    }
    return params;
  }

  /**
   * Restores the job's checkpoint, if it has one of this key whose steps begin the plan; returns
   * the restored steps (they are skipped by `run`).
   */
  private async resume(plan: [Step<never, unknown>, unknown, (() => void)?][]): Promise<StepName[]> {
    const cp = this.options.checkpoint;
    const bytes = cp && (await cp.store.load());
    const state = bytes && decodeCheckpoint(bytes, cp.key);
    if (!state || state.steps.length > plan.length) return [];
    if (state.steps.some((name, i) => plan[i]![0].name !== name)) return [];
    for (const [i, name] of state.steps.entries()) {
      const [step, params] = plan[i]!;
      (step as Step<unknown, unknown>).restore(params, state.values[name]);
    }
    return state.steps;
  }

  /** Saves the state of the steps up to `index` (each step's snapshot) as the job's checkpoint. */
  private async saveCheckpoint(
    plan: [Step<never, unknown>, unknown, (() => void)?][],
    index: number,
  ): Promise<void> {
    const cp = this.options.checkpoint;
    const step = plan[index]![0];
    if (!cp || NO_CHECKPOINT_AFTER.has(step.name)) return;
    const steps = plan.slice(0, index + 1).map(([s]) => s);
    const parts = encodeCheckpoint({
      key: cp.key,
      steps: steps.map((s) => s.name),
      values: Object.fromEntries(steps.map((s) => [s.name, s.snapshot()])),
    });
    await cp.store.save(parts, { step: step.name, bytes: parts.reduce((a, p) => a + p.byteLength, 0) });
  }

  free(): void {
    for (const s of [
      this.neighbors,
      this.pca,
      this.clusters,
      this.umap,
      this.tsne,
      this.tsne3d,
      this.umap3d,
      this.markers,
    ])
      s.free();
  }
}

function pick<T extends object, K extends keyof T>(o: T, ...keys: K[]): Pick<T, K> {
  const out = {} as Pick<T, K>;
  for (const k of keys) out[k] = o[k];
  return out;
}
