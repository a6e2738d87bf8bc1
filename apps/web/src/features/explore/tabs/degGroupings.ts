import type { ArtifactManifest } from '@cellcloud/contracts/artifacts';
import type { SubsetView } from '@cellcloud/contracts/explore';
import { categoricalColumns, levelLabelKey } from '../annotationLevels';

export interface Grouping {
  value: string;
  label: string;
  labels: string[];
}

/** Groupings a DE calculation can use: categorical annotation levels and subsets (`subset:<id>`). */
export function degGroupings(
  manifest: ArtifactManifest,
  subsets: SubsetView[],
  t: (k: string) => string,
): Grouping[] {
  return [
    ...categoricalColumns(manifest).map((o) => ({
      value: o.key,
      label: levelLabelKey(o.key) ? t(levelLabelKey(o.key)!) : o.key,
      labels: o.labels,
    })),
    ...subsets.map((s) => ({ value: `subset:${s.id}`, label: s.name, labels: s.labels })),
  ];
}
