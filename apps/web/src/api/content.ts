import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import {
  contentListResponse,
  contentPaths,
  faqListResponse,
  notificationsUnreadResponse,
  updateLogResponse,
  type ContentListQuery,
} from '@cellcloud/contracts/content';
import { LIMITS } from '@cellcloud/contracts/constants';
import { request } from './client';
import { useSession } from './session';
import { currentLocale } from '../i18n';

export function useFaq() {
  return useQuery({
    queryKey: ['content', 'faq'],
    queryFn: () => request(contentPaths.faq, { schema: faqListResponse }),
  });
}

export function useContentList(query: ContentListQuery) {
  return useQuery({
    queryKey: ['content', 'list', query.type, query.docType ?? 'global'],
    queryFn: () => request(contentPaths.list, { query: { ...query }, schema: contentListResponse }),
  });
}

/** Update log pages of 10 (docs/product/limits.md#interface-constants); loaded only once `enabled` (first drawer opening). */
export function useUpdateLog(enabled: boolean) {
  const locale = currentLocale();
  return useInfiniteQuery({
    queryKey: ['content', 'updateLog', locale],
    enabled,
    initialPageParam: 1,
    queryFn: ({ pageParam }) =>
      request(contentPaths.updateLog, {
        query: { pageNum: pageParam, pageSize: LIMITS.updateLogPageSize },
        schema: updateLogResponse,
      }),
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((n, p) => n + p.rows.length, 0);
      return loaded < last.total && last.rows.length > 0 ? pages.length + 1 : undefined;
    },
  });
}

/** Unread notifications; a 404 (notification API not deployed) shows nothing. */
export function useUnreadCount() {
  const session = useSession();
  return useQuery({
    queryKey: ['notifications', 'unread', session?.token ?? ''],
    enabled: session !== null,
    refetchInterval: 60_000,
    queryFn: () =>
      request(contentPaths.notificationsUnread, { schema: notificationsUnreadResponse, handle: [404] }).catch(
        (e: unknown) => {
          if (e instanceof Error && 'status' in e && e.status === 404) return null;
          throw e;
        },
      ),
  });
}
