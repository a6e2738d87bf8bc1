import type { DegRow } from '@cellcloud/contracts/artifacts';
import { findMarkers } from '../markers';
import { wilcoxonWorkersExited } from '../stats/wilcoxon';
import type { ClustersStep } from './clusters';
import type { NormalizeStep } from './normalize';
import type { CountsSource } from './sources';
import { Step } from './step';

/** Wilcoxon markers of every cluster vs the rest on the log-normalized data, gene symbols as names. */
export class MarkersStep extends Step<Record<string, never>, DegRow[]> {
  readonly name = 'markers' as const;

  constructor(
    private readonly source: CountsSource,
    private readonly normalize: NormalizeStep,
    private readonly clusters: ClustersStep,
  ) {
    super([source, normalize, clusters]);
  }

  static defaults(): Record<string, never> {
    return {};
  }

  /**
   * Ends once the Wilcoxon worker thread has exited: until then it holds the normalized values'
   * shared buffer, which one-shot runs let go of after this step (runner.ts).
   */
  protected async run(
    _p: Record<string, never>,
    progress: (f: number, m: string) => void,
  ): Promise<DegRow[]> {
    const { codes, labels } = this.clusters.value;
    const rows = findMarkers(this.normalize.value, codes, labels, this.source.value.geneSymbols, (f) =>
      progress(f, 'Wilcoxon rank-sum test per gene'),
    );
    await wilcoxonWorkersExited();
    return rows;
  }
}
