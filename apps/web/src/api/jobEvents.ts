import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { jobEvent } from '@cellcloud/contracts/jobs';
import { buildUrl } from './client';
import { useSession } from './session';
import { jobsKeys } from './jobs';

/**
 * Live job progress and unread count over server-sent events (`GET /api/jobs/events`, token in
 * the query because EventSource cannot send headers). Updates the TanStack caches: a job's own
 * query, the job lists (refetched), the header badge's unread count. Mount once per page tree
 * (the shell's notification badge mounts it, so every signed-in page is live).
 */
export function useJobEvents() {
  const qc = useQueryClient();
  const token = useSession()?.token;
  useEffect(() => {
    if (!token || typeof EventSource === 'undefined') return;
    const es = new EventSource(buildUrl('/api/jobs/events', { token }));
    let listTimer: ReturnType<typeof setTimeout> | undefined;
    es.onmessage = (m: MessageEvent<string>) => {
      const parsed = jobEvent.safeParse(JSON.parse(m.data));
      if (!parsed.success) return;
      const e = parsed.data;
      if (e.type === 'job') {
        qc.setQueryData(jobsKeys.one(e.job.id), e.job);
        // Lists refetch at most twice a second (progress events are frequent).
        listTimer ??= setTimeout(() => {
          listTimer = undefined;
          void qc.invalidateQueries({ queryKey: ['jobs', 'list'] });
        }, 500);
      } else if (e.type === 'notifications') {
        qc.setQueriesData({ queryKey: ['notifications', 'unread'] }, e.unread);
        void qc.invalidateQueries({ queryKey: ['notifications', 'list'] });
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
