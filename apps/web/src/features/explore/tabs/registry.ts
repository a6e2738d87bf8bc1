import type { ComponentType } from 'react';
import type { ArtifactManifest } from '@cellcloud/contracts/artifacts';
import type { SubsetView } from '@cellcloud/contracts/explore';
import type { PermissionKey } from '@cellcloud/contracts/privileges';
import type { TaskDefinition } from '@cellcloud/contracts/tasks/define';
import { TASKS } from '@cellcloud/tasks/contract';
import type { ArtifactClient } from '../data/ArtifactClient';
import { CellAnnotationsTab } from '../annotation/CellAnnotationsTab';
import { CellQualityTab } from './CellQualityTab';
import { CompositionTab } from './CompositionTab';
import { DifferentialExpressionTab } from './DifferentialExpressionTab';
import { GeneExpressionTab } from './GeneExpressionTab';

export interface TabProps {
  client: ArtifactClient;
  /** The analysis (job) id; null where there is no server (job-backed actions hidden). */
  datasetId: string | null;
  subsets: SubsetView[];
  manifest: ArtifactManifest;
  symbols: string[];
  selection: number[];
  canonicalMarkers: boolean;
}

/**
 * The explore tabs of docs/product/screens.md#explorer-tabs, in order. A tab shows what exists for the dataset:
 * - `own`: its view of the standard pipeline's artifacts (shown when `available`);
 * - `tasks`: the analysis tasks that run and show their results here — every task whose contract
 *   names this tab (`tab` in packages/contracts/src/tasks/<task>.ts). Adding a task to a tab needs
 *   no edit here.
 * A tab with neither (for this dataset) shows the empty state (`needsKey` explains what it needs).
 */
export interface ExploreTab {
  key: string;
  permission: PermissionKey | null;
  own: { available: (m: ArtifactManifest) => boolean; component: ComponentType<TabProps> } | null;
  tasks: readonly TaskDefinition[];
}

const hasCategorical = (m: ArtifactManifest) => m.obs.some((o) => o.kind === 'categorical');

const TABS: readonly Omit<ExploreTab, 'tasks'>[] = [
  {
    key: 'cellQuality',
    permission: 'exploreCellQuality',
    own: {
      available: (m) => m.obs.some((o) => o.kind === 'numeric') || Boolean(m.qc),
      component: CellQualityTab,
    },
  },
  {
    key: 'geneExpression',
    permission: 'exploreGeneExpression',
    own: { available: (m) => m.layers.length > 0, component: GeneExpressionTab },
  },
  {
    key: 'cellularComposition',
    permission: 'exploreCellularComposition',
    own: { available: hasCategorical, component: CompositionTab },
  },
  {
    key: 'differentialExpression',
    permission: 'exploreDifferentialExpression',
    own: { available: (m) => m.markers.length > 0, component: DifferentialExpressionTab },
  },
  { key: 'cellInteractions', permission: 'exploreCellInteraction', own: null },
  { key: 'trajectory', permission: 'exploreTrajectory', own: null },
  { key: 'cnv', permission: 'exploreCnv', own: null },
  { key: 'ith', permission: 'exploreCnv', own: null },
  { key: 'vdj', permission: 'exploreVdj', own: null },
  { key: 'tfRegulation', permission: 'exploreTfRegulation', own: null },
  {
    key: 'cellAnnotations',
    permission: 'exploreCellAnnotations',
    own: { available: hasCategorical, component: CellAnnotationsTab },
  },
];

export const EXPLORE_TABS: readonly ExploreTab[] = TABS.map((tab) => ({
  ...tab,
  tasks: TASKS.filter((task) => task.tab === tab.key),
}));

export type TabAccess = 'enabled' | 'disabled' | 'hidden';
