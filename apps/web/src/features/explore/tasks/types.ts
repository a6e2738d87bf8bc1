import type { ArtifactManifest } from '@cellcloud/contracts/artifacts';
import type { SubsetView } from '@cellcloud/contracts/explore';
import type { TaskOutputsView, TaskView } from '@cellcloud/contracts/tasks/api';
import type { ArtifactClient } from '../data/ArtifactClient';

/** What a task's own result view receives (a completed task and its outputs manifest + summary). */
export interface WebTaskViewProps {
  datasetId: string;
  task: TaskView;
  outputs: TaskOutputsView;
  client: ArtifactClient;
  manifest: ArtifactManifest;
  subsets: SubsetView[];
}
