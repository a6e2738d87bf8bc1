import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { MY_FILES_API, projectGroupView, resultFileView } from '@cellcloud/contracts/my-files';
import { request } from './client';

/** My Analyses "Result files" and "Project files" (contracts/my-files.ts). */
export function useResultFiles() {
  return useQuery({
    queryKey: ['myFiles', 'results'],
    queryFn: () => request(MY_FILES_API.results, { schema: z.array(resultFileView) }),
  });
}

export function useProjectFiles() {
  return useQuery({
    queryKey: ['myFiles', 'projects'],
    queryFn: () => request(MY_FILES_API.projects, { schema: z.array(projectGroupView) }),
    refetchInterval: (q) =>
      q.state.data?.some((g) => g.samples.some((s) => s.state === 'parsing' || s.state === 'uploading'))
        ? 3000
        : false,
  });
}
