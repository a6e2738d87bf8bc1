import { Col, Row, Statistic, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { storageKinds, type AdminStorageView } from '@cellcloud/contracts/admin';
import { useAdminStorage } from '../../api/admin';
import { formatBytes } from '../files/format';

/**
 * Storage: totals by kind (uploads, results, downloads of every user, and the tutorial videos,
 * admin-owned and in no quota) and usage per user, largest first.
 */
export function AdminStorageTab() {
  const { t } = useTranslation('admin');
  const q = useAdminStorage();
  return (
    <>
      <Row gutter={24} style={{ marginBottom: 16 }}>
        {storageKinds.map((k) => (
          <Col key={k}>
            <Statistic title={t(`storage.${k}`)} value={formatBytes(q.data?.totals[k] ?? 0)} />
          </Col>
        ))}
        <Col>
          <Statistic
            title={t('storage.videos')}
            value={formatBytes(q.data?.totals.videos ?? 0)}
            data-testid="admin-storage-videos"
          />
          <Typography.Text type="secondary">{t('storage.videosNote')}</Typography.Text>
        </Col>
      </Row>
      <Table<AdminStorageView['users'][number]>
        scroll={{ x: 'max-content' }}
        size="small"
        rowKey="userId"
        data-testid="admin-storage"
        loading={q.isLoading}
        dataSource={q.data?.users ?? []}
        columns={[
          { key: 'username', title: t('users.username'), dataIndex: 'username' },
          ...storageKinds.map((k) => ({
            key: k,
            title: t(`storage.${k}`),
            render: (_: unknown, r: AdminStorageView['users'][number]) => formatBytes(r[k]),
          })),
          { key: 'total', title: t('storage.total'), render: (_, r) => formatBytes(r.total) },
        ]}
      />
    </>
  );
}
