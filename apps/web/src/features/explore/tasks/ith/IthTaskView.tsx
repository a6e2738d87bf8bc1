import { useMemo } from 'react';
import { taskOutputSource } from '../cnv/taskSource';
import type { WebTaskViewProps } from '../types';
import { IthView } from './IthView';

/** Registry entry of the `ith` task: its result view over the server's outputs. */
export function IthTaskView({ datasetId, task, outputs }: WebTaskViewProps) {
  const source = useMemo(() => taskOutputSource({ datasetId, task, outputs }), [datasetId, task, outputs]);
  return <IthView source={source} />;
}
