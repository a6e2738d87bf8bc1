import type { ProgressEvent as BaseProgressEvent } from '@cellcloud/contracts/jobs';

/**
 * Step objects in the bakana style: each step holds its inputs (upstream steps), computes its
 * result in `compute(params)`, knows its own parameter defaults (`static defaults()`), and frees
 * what it holds in `free()`. A step recomputes only when its own parameters or an upstream result
 * changed; `changed` tells the downstream steps whether they must recompute too.
 */
export const stepNames = [
  'inputs',
  'qc',
  'filter',
  'doublets',
  'ambient',
  'normalize',
  'hvg',
  'cellCycle',
  'pca',
  'batch',
  'neighbors',
  'clusters',
  'umap',
  'tsne',
  'umap3D',
  'tsne3D',
  'markers',
] as const;
export type StepName = (typeof stepNames)[number];

/**
 * The pipeline's progress: the one ProgressEvent of contracts/jobs.ts (what jobs report and the
 * browser receives), with the step narrowed to the pipeline's steps and the message always set.
 */
export interface ProgressEvent extends BaseProgressEvent {
  /** Overall fraction done, 0–1. */
  fraction: number;
  step: StepName;
  message: string;
}
export type ProgressCallback = (event: ProgressEvent) => void;

/** Progress inside one step: fraction of that step, 0–1, and an English message. */
export type StepProgress = (fraction: number, message: string) => void;

export abstract class Step<P, R> {
  abstract readonly name: StepName;
  /** True when the last compute() produced a new result. */
  changed = false;
  private lastKey: string | undefined;
  protected result: R | undefined;

  constructor(protected readonly upstream: Step<unknown, unknown>[]) {}

  /** Computes if needed; returns whether it did. */
  async compute(params: P, progress: StepProgress = () => {}): Promise<boolean> {
    const key = JSON.stringify(params);
    const stale = this.result === undefined || key !== this.lastKey || this.upstream.some((u) => u.changed);
    this.changed = stale;
    if (!stale) return false;
    this.release();
    this.result = await this.run(params, progress);
    this.lastKey = key;
    return true;
  }

  get value(): R {
    if (this.result === undefined) throw new Error(`engine step '${this.name}' has not been computed yet`);
    return this.result;
  }

  /**
   * The result as plain data for a checkpoint (checkpoint.ts: objects, arrays, typed arrays,
   * strings, numbers); steps whose result holds functions or class instances override it with
   * `restoreResult`.
   */
  snapshot(): unknown {
    return this.value;
  }

  /** Rebuilds the result from `snapshot()`'s data (upstream steps are restored first). */
  protected restoreResult(data: unknown): R {
    return data as R;
  }

  /**
   * Takes a checkpoint's snapshot as the result computed with `params`: a following `compute` with
   * the same parameters does not recompute, and downstream steps see this step unchanged.
   */
  restore(params: P, data: unknown): void {
    this.release();
    this.result = this.restoreResult(data);
    this.lastKey = JSON.stringify(params);
    this.changed = false;
  }

  /** Frees WebAssembly memory held by the current result (no-op for pure-JS results). */
  protected release(): void {}

  free(): void {
    this.release();
    this.result = undefined;
    this.lastKey = undefined;
  }

  protected abstract run(params: P, progress: StepProgress): Promise<R> | R;
}
