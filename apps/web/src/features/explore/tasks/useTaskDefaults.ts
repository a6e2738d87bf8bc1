import { useQuery } from '@tanstack/react-query';
import { TASK_API, taskDefaultsView } from '@cellcloud/contracts/tasks/api';
import { request } from '../../../api/client';

/**
 * The defaults the server computes for a task from the dataset (issue 31: annotation level, CNV
 * reference types, species, gene set…), with a translated reason per field. Keyed under the
 * dataset's task list, so a finished run (a new annotation level, a newer DE run) refreshes them.
 * `uploads`: the task's uploads the form holds a file for — e.g. a gene set file, which replaces
 * the default built-in set, so that default is no longer shown.
 */
export function useTaskDefaults(
  datasetId: string | undefined,
  task: string,
  lang: string,
  uploads: readonly string[] = [],
) {
  const held = [...uploads].sort();
  return useQuery({
    queryKey: ['tasks', datasetId, 'defaults', task, lang, held.join(',')] as const,
    enabled: !!datasetId,
    placeholderData: (previous) => previous,
    queryFn: () =>
      request(TASK_API.defaults(datasetId!, task, held), {
        schema: taskDefaultsView,
        handle: [400, 403, 404, 409],
      }),
    staleTime: 30_000,
  });
}
