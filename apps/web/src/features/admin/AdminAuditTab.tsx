import { Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import type { AdminAuditView } from '@cellcloud/contracts/admin';
import { useAdminAudit } from '../../api/admin';

const ACTIONS = [
  'user.disable',
  'user.enable',
  'user.plan',
  'plan.update',
  'job.requeue',
  'job.cancel',
  'download.approve',
  'download.decline',
  'public.ingest',
  'content.create',
  'content.update',
  'content.delete',
  'content.reorder',
  'video.upload',
  'video.update',
  'video.delete',
  'video.reorder',
  'notification.broadcast',
];

/** Audit log: every administrator action with who, what and when, newest first. */
export function AdminAuditTab() {
  const { t } = useTranslation('admin');
  const q = useAdminAudit();
  return (
    <Table<AdminAuditView>
      scroll={{ x: 'max-content' }}
      size="small"
      rowKey="id"
      data-testid="admin-audit"
      loading={q.isLoading}
      dataSource={q.data ?? []}
      locale={{ emptyText: t('audit.empty') }}
      columns={[
        {
          key: 'at',
          title: t('audit.when'),
          render: (_, r) => dayjs(r.createdAt).format('YYYY-MM-DD HH:mm:ss'),
        },
        { key: 'who', title: t('audit.who'), dataIndex: 'adminUsername' },
        {
          key: 'action',
          title: t('audit.action'),
          render: (_, r) =>
            ACTIONS.includes(r.action) ? t(`audit.actions.${r.action.replace('.', '_')}`) : r.action,
        },
        { key: 'target', title: t('audit.target'), dataIndex: 'target' },
        {
          key: 'details',
          title: t('audit.details'),
          render: (_, r) =>
            Object.keys(r.details).length ? (
              <Typography.Text code style={{ fontSize: 12 }}>
                {JSON.stringify(r.details)}
              </Typography.Text>
            ) : null,
        },
      ]}
    />
  );
}
