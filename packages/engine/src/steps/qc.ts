import { computeQcMetrics, type QcMetrics } from './qc-metrics';
import type { InputsStep } from './inputs';
import { Step } from './step';

/** Per-cell QC metrics on all input cells (before any filter). */
export class QcStep extends Step<Record<string, never>, QcMetrics> {
  readonly name = 'qc' as const;

  constructor(private readonly inputs: InputsStep) {
    super([inputs]);
  }

  static defaults(): Record<string, never> {
    return {};
  }

  protected run(): QcMetrics {
    const m = this.inputs.value;
    return computeQcMetrics(m.counts, m.geneSymbols);
  }
}
