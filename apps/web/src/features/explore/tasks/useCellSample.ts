import { useQuery } from '@tanstack/react-query';
import type { TaskOutputsView } from '@cellcloud/contracts/tasks/api';
import { fetchTaskFile } from '../../../api/tasks';
import { CELL_SAMPLE_FILE, parseCellSample } from './cellSampleNotice';

/** The run's sample description, read when its outputs list the file; null otherwise. */
export function useCellSample(datasetId: string, taskId: string, outputs: TaskOutputsView) {
  const entry = outputs.outputs.files.find((f) => f.name === CELL_SAMPLE_FILE);
  const query = useQuery({
    queryKey: ['tasks', datasetId, taskId, 'file', entry?.file ?? ''],
    enabled: entry !== undefined,
    staleTime: Infinity,
    queryFn: async () =>
      parseCellSample(
        JSON.parse(new TextDecoder().decode(await fetchTaskFile(datasetId, taskId, entry!.file))),
      ),
  });
  return entry ? (query.data ?? null) : null;
}
