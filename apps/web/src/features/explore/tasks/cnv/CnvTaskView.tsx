import { useMemo } from 'react';
import type { WebTaskViewProps } from '../types';
import { CnvView } from './CnvView';
import { taskOutputSource } from './taskSource';

/** Registry entry of the `cnv` task: its result view over the server's outputs. */
export function CnvTaskView({ datasetId, task, outputs }: WebTaskViewProps) {
  const source = useMemo(() => taskOutputSource({ datasetId, task, outputs }), [datasetId, task, outputs]);
  return <CnvView source={source} />;
}
