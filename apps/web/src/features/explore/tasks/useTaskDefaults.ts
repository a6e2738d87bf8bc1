import { useQuery } from '@tanstack/react-query';
import { TASK_API, taskDefaultsView } from '@cellcloud/contracts/tasks/api';
import { request } from '../../../api/client';

/**
 * The defaults the server computes for a task from the dataset (issue 31: annotation level, CNV
 * reference types, species, gene set…), with a translated reason per field. Keyed under the
 * dataset's task list, so a finished run (a new annotation level, a newer DE run) refreshes them.
 */
export function useTaskDefaults(datasetId: string | undefined, task: string, lang: string) {
  return useQuery({
    queryKey: ['tasks', datasetId, 'defaults', task, lang] as const,
    enabled: !!datasetId,
    queryFn: () =>
      request(TASK_API.defaults(datasetId!, task), {
        schema: taskDefaultsView,
        handle: [400, 403, 404, 409],
      }),
    staleTime: 30_000,
  });
}
