import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { paged } from '@cellcloud/contracts/envelope';
import { notificationView } from '@cellcloud/contracts/notifications';
import { request } from './client';
import { PATHS } from '@cellcloud/contracts/api-paths';

/** docs/product/api.md#notification-calls notifications. The header badge's unread query key is ['notifications', 'unread', …]. */
export const NOTIFICATIONS_API = PATHS.notifications.base;
export const notificationsKeys = {
  all: ['notifications'] as const,
  list: (pageNum: number) => ['notifications', 'list', pageNum] as const,
};

export function useNotifications(pageNum: number, pageSize = 10) {
  return useQuery({
    queryKey: notificationsKeys.list(pageNum),
    queryFn: () =>
      request(NOTIFICATIONS_API, { query: { pageNum, pageSize }, schema: paged(notificationView) }),
    placeholderData: keepPreviousData,
  });
}

function useNotificationsMutation<A>(fn: (a: A) => Promise<unknown>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSettled: () => qc.invalidateQueries({ queryKey: notificationsKeys.all }),
  });
}

/** PUT /{id} with a form (docs/product/api.md). */
export const useMarkNotificationRead = () =>
  useNotificationsMutation((id: string) =>
    request(`${NOTIFICATIONS_API}/${id}`, { method: 'PUT', body: { read: 'true' }, form: true }),
  );

/** DELETE selected (`ids`) or all (no ids). */
export const useDeleteNotifications = () =>
  useNotificationsMutation((ids: string[] | undefined) =>
    request(NOTIFICATIONS_API, { method: 'DELETE', query: { ids } }),
  );
