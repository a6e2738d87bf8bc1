import type { ComponentType } from 'react';
import type { ArtifactManifest } from '@cellcloud/contracts/artifacts';
import type { SubsetView } from '@cellcloud/contracts/explore';
import type { PermissionKey } from '@cellcloud/contracts/privileges';
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
 * The explore tabs of SPEC §2, in order. A tab whose analysis has not run shows the empty state
 * (`needsKey` explains what it needs); a later analysis plugs in by giving `component` and
 * `available` — nothing else changes.
 */
export interface ExploreTab {
  key: string;
  permission: PermissionKey | null;
  available: (m: ArtifactManifest) => boolean;
  component: ComponentType<TabProps> | null;
}

const never = () => false;

export const EXPLORE_TABS: readonly ExploreTab[] = [
  {
    key: 'cellQuality',
    permission: 'exploreCellQuality',
    available: (m) => m.obs.some((o) => o.kind === 'numeric') || Boolean(m.qc),
    component: CellQualityTab,
  },
  {
    key: 'geneExpression',
    permission: 'exploreGeneExpression',
    available: (m) => m.layers.length > 0,
    component: GeneExpressionTab,
  },
  {
    key: 'cellularComposition',
    permission: 'exploreCellularComposition',
    available: (m) => m.obs.some((o) => o.kind === 'categorical'),
    component: CompositionTab,
  },
  {
    key: 'differentialExpression',
    permission: 'exploreDifferentialExpression',
    available: (m) => m.markers.length > 0,
    component: DifferentialExpressionTab,
  },
  { key: 'cellInteractions', permission: 'exploreCellInteraction', available: never, component: null },
  { key: 'trajectory', permission: 'exploreTrajectory', available: never, component: null },
  { key: 'cnv', permission: 'exploreCnv', available: never, component: null },
  { key: 'ith', permission: 'exploreCnv', available: never, component: null },
  { key: 'vdj', permission: 'exploreVdj', available: never, component: null },
  { key: 'tfRegulation', permission: 'exploreTfRegulation', available: never, component: null },
  {
    key: 'cellAnnotations',
    permission: 'exploreCellAnnotations',
    available: (m) => m.obs.some((o) => o.kind === 'categorical'),
    component: CellAnnotationsTab,
  },
];

export type TabAccess = 'enabled' | 'disabled' | 'hidden';
