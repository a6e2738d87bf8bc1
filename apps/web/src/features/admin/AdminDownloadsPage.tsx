import { useState } from 'react';
import { App, Button, Input, Modal, Radio, Space, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import type { DownloadView } from '@cellcloud/contracts/downloads';
import { useIsAdmin } from '../../api/admin';
import { useAdminDownloads, useDecideDownload } from '../../api/downloads';
import { ResourceUnavailable } from '../../shared/ResourceUnavailable';

/** /admin/downloads (administrators only): the queue of download requests to approve or decline. */
export default function AdminDownloadsPage() {
  const { t } = useTranslation('downloads');
  const isAdmin = useIsAdmin();
  const [status, setStatus] = useState<'pending' | 'all'>('pending');
  const q = useAdminDownloads(status);
  const decide = useDecideDownload();
  const { message } = App.useApp();
  const [declining, setDeclining] = useState<DownloadView | null>(null);
  const [reason, setReason] = useState('');
  if (isAdmin === false) return <ResourceUnavailable />;
  return (
    <>
      <Typography.Title level={2}>{t('admin.title')}</Typography.Title>
      <Radio.Group
        value={status}
        onChange={(e) => setStatus(e.target.value as 'pending' | 'all')}
        options={[
          { value: 'pending', label: t('admin.pending') },
          { value: 'all', label: t('admin.all') },
        ]}
        style={{ marginBottom: 12 }}
      />
      <Table<DownloadView>
        scroll={{ x: 'max-content' }}
        size="small"
        rowKey="id"
        data-testid="admin-downloads"
        loading={q.isLoading}
        dataSource={q.data ?? []}
        locale={{ emptyText: t('admin.empty') }}
        columns={[
          { key: 'user', title: t('columns.user'), dataIndex: 'username' },
          { key: 'fileName', title: t('columns.fileName'), dataIndex: 'fileName' },
          { key: 'kind', title: t('columns.kind'), render: (_, r) => t(`kinds.${r.kind}`) },
          {
            key: 'status',
            title: t('columns.status'),
            render: (_, r) => <Tag>{t(`status.${r.status}`)}</Tag>,
          },
          {
            key: 'requestedAt',
            title: t('columns.requestedAt'),
            render: (_, r) => dayjs(r.requestedAt).format('YYYY-MM-DD HH:mm'),
          },
          {
            key: 'action',
            title: t('columns.action'),
            render: (_, r) =>
              r.status === 'pending' ? (
                <Space>
                  <Button
                    size="small"
                    type="primary"
                    data-testid="admin-approve"
                    onClick={() =>
                      decide.mutate(
                        { id: r.id, approve: true },
                        { onSuccess: () => void message.success(t('admin.approved')) },
                      )
                    }
                  >
                    {t('admin.approve')}
                  </Button>
                  <Button size="small" danger data-testid="admin-decline" onClick={() => setDeclining(r)}>
                    {t('admin.decline')}
                  </Button>
                </Space>
              ) : null,
          },
        ]}
      />
      <Modal
        open={declining !== null}
        title={t('admin.declineTitle', { name: declining?.fileName ?? '' })}
        onCancel={() => setDeclining(null)}
        footer={
          <Button
            danger
            type="primary"
            data-testid="admin-decline-ok"
            loading={decide.isPending}
            onClick={() => {
              if (!declining || reason.trim() === '') return;
              decide.mutate(
                { id: declining.id, approve: false, reason: reason.trim() },
                {
                  onSuccess: () => {
                    setDeclining(null);
                    setReason('');
                  },
                },
              );
            }}
          >
            {t('admin.decline')}
          </Button>
        }
      >
        <Input.TextArea
          data-testid="admin-decline-reason"
          value={reason}
          maxLength={500}
          status={reason.trim() === '' ? 'warning' : undefined}
          onChange={(e) => setReason(e.target.value)}
          placeholder={t('admin.reasonPlaceholder')}
        />
      </Modal>
    </>
  );
}
