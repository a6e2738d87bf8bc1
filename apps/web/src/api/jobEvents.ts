import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { JobEvent } from '@cellcloud/contracts/jobs';
import { buildUrl } from './client';
import { useSession } from './session';
import { PATHS } from '@cellcloud/contracts/api-paths';

/** A server-sent event payload (`GET /api/jobs/events`); checked by its `type` only, zod-free. */
function parseEvent(data: string): JobEvent | null {
  try {
    const e = JSON.parse(data) as JobEvent;
    return e &&
      (e.type === 'job' || e.type === 'notifications' || e.type === 'cellFiltering' || e.type === 'task')
      ? e
      : null;
  } catch {
    return null;
  }
}

/**
 * Live job progress and unread count over server-sent events (`GET /api/jobs/events`, token in
 * the query because EventSource cannot send headers). Updates the TanStack caches: a job's own
 * query, the job lists (refetched), the header badge's unread count, the wizard's evaluation,
 * a dataset's analysis tasks.
 * Mounted once by the header's notification badge, so every signed-in page is live. Kept free of
 * zod (the shell's bundle budget).
 */
export function useJobEvents() {
  const qc = useQueryClient();
  const token = useSession()?.token;
  useEffect(() => {
    if (!token || typeof EventSource === 'undefined') return;
    const es = new EventSource(buildUrl(PATHS.jobs.events, { token }));
    let listTimer: ReturnType<typeof setTimeout> | undefined;
    es.onmessage = (m: MessageEvent<string>) => {
      const e = parseEvent(m.data);
      if (!e) return;
      if (e.type === 'job') {
        qc.setQueryData(['jobs', 'one', e.job.id], e.job);
        // Lists refetch at most twice a second (progress events are frequent).
        listTimer ??= setTimeout(() => {
          listTimer = undefined;
          void qc.invalidateQueries({ queryKey: ['jobs', 'list'] });
        }, 500);
      } else if (e.type === 'notifications') {
        qc.setQueriesData({ queryKey: ['notifications', 'unread'] }, e.unread);
        void qc.invalidateQueries({ queryKey: ['notifications', 'list'] });
      } else if (e.type === 'task') {
        // an analysis task's status/progress (api/tasks.ts taskKeys.list)
        void qc.invalidateQueries({ queryKey: ['tasks', e.datasetId], exact: true });
      } else {
        void qc.invalidateQueries({ queryKey: ['wizard', 'cellFiltering', e.draftId] });
      }
    };
    return () => {
      if (listTimer) clearTimeout(listTimer);
      es.close();
    };
  }, [qc, token]);
}
