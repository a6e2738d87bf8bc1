import { valueKindOf, type ValueKind } from '@cellcloud/contracts/files';
import type { CountMatrix } from '@cellcloud/formats/matrix';
import type { CountsSource } from './sources';
import { Step } from './step';

export const TARGET_SUM = 1e4;

/** The value kind of a matrix (docs/methods/import-formats.md#value-kinds): one scan of its values. */
export function countsKind(counts: CountMatrix): ValueKind {
  let nonInteger = false;
  let max = 0;
  for (const v of counts.data) {
    if (v > max) max = v;
    if (!nonInteger && !Number.isInteger(v)) nonInteger = true;
  }
  return valueKindOf(nonInteger, max);
}

/**
 * log1p(count / total × 1e4) per cell (scanpy normalize_total + log1p). The result shares
 * `indptr`/`indices` with the counts (immutable by convention) and owns only its values, which
 * live in a SharedArrayBuffer (same size, no copy) so that worker threads read them — the
 * Wilcoxon markers split their genes with one (stats/wilcoxon.ts) when the indices are shared too
 * (the merged input's are: steps/inputs.ts, sparse.ts).
 */
export function logNormalize(counts: CountMatrix, kind: ValueKind = 'counts'): CountMatrix {
  const data = new Float32Array(new SharedArrayBuffer(counts.data.length * 4));
  // Already log-normalized input is used as it is: normalizing and logging again would distort it.
  if (kind === 'logNormalized') data.set(counts.data);
  else
    for (let c = 0; c < counts.nCells; c++) {
      const s = counts.indptr[c];
      const e = counts.indptr[c + 1];
      let total = 0;
      for (let k = s; k < e; k++) total += counts.data[k];
      const f = total > 0 ? TARGET_SUM / total : 0;
      for (let k = s; k < e; k++) data[k] = Math.log1p(counts.data[k] * f);
    }
  return {
    nGenes: counts.nGenes,
    nCells: counts.nCells,
    indptr: counts.indptr,
    indices: counts.indices,
    data,
  };
}

export class NormalizeStep extends Step<Record<string, never>, CountMatrix> {
  readonly name = 'normalize' as const;

  constructor(private readonly source: CountsSource) {
    super([source]);
  }

  static defaults(): Record<string, never> {
    return {};
  }

  /** The value kind of the input counts, found by the last run (integer and non-integer counts are normalized alike). */
  kind: ValueKind = 'counts';

  protected run(): CountMatrix {
    this.dropped = false;
    this.kind = countsKind(this.source.value.counts);
    return logNormalize(this.source.value.counts, this.kind);
  }

  /** Checkpoints hold no normalized values: they are recomputed from the restored counts. */
  override snapshot(): unknown {
    return {};
  }

  protected override restoreResult(): CountMatrix {
    return this.run();
  }

  /** True while the values are let go (`dropValues`); reading `value` recomputes them. */
  dropped = false;

  /**
   * One-shot runs that do not write alongside the embeddings, once the markers are done: nothing
   * reads the normalized values until the result is collected, so the t-SNE and UMAP layouts do not
   * run with them held (4 B per non-zero — 2.8 GiB at 500k cells, issue 14). The next read of
   * `value` recomputes them (the same logNormalize of the same counts: the same values).
   */
  dropValues(): void {
    if (!this.result || this.dropped) return;
    this.result = { ...this.result, data: new Float32Array(0) };
    this.dropped = true;
  }

  override get value(): CountMatrix {
    if (this.dropped) {
      this.result = logNormalize(this.source.value.counts, this.kind);
      this.dropped = false;
    }
    return super.value;
  }
}
