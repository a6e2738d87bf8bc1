import { useState } from 'react';
import { Badge, Button, Empty, List, Popconfirm, Space, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import type { NotificationView } from '@cellcloud/contracts/notifications';
import { useDeleteNotifications, useMarkNotificationRead, useNotifications } from '../../api/notifications';

const KIND_KEYS: Record<NotificationView['kind'], string> = {
  'job.completed': 'notifications.kinds.jobCompleted',
  'job.failed': 'notifications.kinds.jobFailed',
  'download.ready': 'notifications.kinds.downloadReady',
  'download.declined': 'notifications.kinds.downloadDeclined',
  'download.expired': 'notifications.kinds.downloadExpired',
  'share.received': 'notifications.kinds.shareReceived',
  system: 'content:page.systemNotice',
};

/** /notifications: job and download messages; click marks read (and opens a finished result). */
export default function NotificationsPage() {
  const { t, i18n } = useTranslation(['jobs', 'content', 'analyses']);
  const navigate = useNavigate();
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<string[]>([]);
  const list = useNotifications(page);
  const markRead = useMarkNotificationRead();
  const del = useDeleteNotifications();
  const zh = i18n.language === 'zh-CN';
  // a system notification carries its own text in both languages (admin console)
  const text = (n: NotificationView, en: string, cn: string) =>
    String((zh ? n.params[cn] : n.params[en]) ?? '');

  const open = (n: NotificationView) => {
    if (!n.read) markRead.mutate(n.id);
    if ((n.kind === 'job.completed' || n.kind === 'share.received') && n.jobId)
      navigate(`/userDatasetAnalysis?id=${n.jobId}`);
    else if (n.jobId) navigate('/my_analyzes?tab=integrated');
  };
  const toggle = (id: string) =>
    setSelected((s) => (s.includes(id) ? s.filter((x) => x !== id) : [...s, id]));

  return (
    <>
      <Space style={{ width: '100%', justifyContent: 'space-between' }} wrap>
        <Typography.Title level={2}>{t('notifications.title')}</Typography.Title>
        <Space>
          <Button
            disabled={!selected.length}
            onClick={() => del.mutate(selected, { onSuccess: () => setSelected([]) })}
          >
            {t('notifications.deleteSelected')}
          </Button>
          <Popconfirm title={t('notifications.deleteAllConfirm')} onConfirm={() => del.mutate(undefined)}>
            <Button danger disabled={!list.data?.total}>
              {t('notifications.deleteAll')}
            </Button>
          </Popconfirm>
        </Space>
      </Space>
      <List<NotificationView>
        data-testid="notifications-list"
        loading={list.isLoading}
        dataSource={list.data?.rows ?? []}
        pagination={
          list.data && list.data.total > 10
            ? { current: page, pageSize: 10, total: list.data.total, onChange: setPage }
            : false
        }
        locale={{ emptyText: <Empty description={t('notifications.empty')} /> }}
        renderItem={(n) => (
          <List.Item
            data-testid={`notification-${n.kind}`}
            actions={[
              <Button
                key="sel"
                size="small"
                type={selected.includes(n.id) ? 'primary' : 'default'}
                onClick={() => toggle(n.id)}
              >
                {t('notifications.select')}
              </Button>,
            ]}
          >
            <List.Item.Meta
              avatar={<Badge dot={!n.read} />}
              title={
                <Typography.Link onClick={() => open(n)} strong={!n.read}>
                  {n.kind === 'system'
                    ? t(KIND_KEYS.system, { title: text(n, 'titleEn', 'titleZh') })
                    : t(KIND_KEYS[n.kind], {
                        ...n.params,
                        // a share's role in the reader's language
                        ...(n.kind === 'share.received'
                          ? { role: t(`analyses:shared.roles.${String(n.params.role)}`) }
                          : {}),
                      })}
                </Typography.Link>
              }
              description={
                <>
                  {n.kind === 'system' && (
                    <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', marginBottom: 4 }}>
                      {text(n, 'bodyEn', 'bodyZh')}
                    </Typography.Paragraph>
                  )}
                  {dayjs(n.createdAt).format('YYYY-MM-DD HH:mm:ss')}
                </>
              }
            />
          </List.Item>
        )}
      />
    </>
  );
}
