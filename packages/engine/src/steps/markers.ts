import type { DegRow } from '@cellcloud/contracts/artifacts';
import { findMarkers } from '../markers';
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

  protected run(_p: Record<string, never>, progress: (f: number, m: string) => void): DegRow[] {
    const { codes, labels } = this.clusters.value;
    return findMarkers(this.normalize.value, codes, labels, this.source.value.geneSymbols, (f) =>
      progress(f, 'Wilcoxon rank-sum test per gene'),
    );
  }
}
