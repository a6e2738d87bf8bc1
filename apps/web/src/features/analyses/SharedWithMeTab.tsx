import { Button, Empty, Table, Tag } from 'antd';
import dayjs from 'dayjs';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useSharedWithMe } from '../../api/sharing';

/** My Analyses → Shared with me (issue 35): analyses other users shared, with the owner's name and role. */
export function SharedWithMeTab() {
  const { t } = useTranslation('analyses');
  const navigate = useNavigate();
  const list = useSharedWithMe();
  return (
    <Table
      size="small"
      rowKey="shareId"
      loading={list.isLoading}
      data-testid="shared-with-me"
      dataSource={list.data ?? []}
      locale={{ emptyText: <Empty description={t('shared.empty')} /> }}
      columns={[
        { key: 'jobName', title: t('columns.jobName'), dataIndex: 'jobName' },
        {
          key: 'owner',
          title: t('shared.owner'),
          render: (_, r) => <span data-testid={`shared-owner-${r.datasetId}`}>{r.owner.username}</span>,
        },
        {
          key: 'role',
          title: t('shared.role'),
          render: (_, r) => (
            <Tag color={r.role === 'editor' ? 'blue' : 'default'}>{t(`shared.roles.${r.role}`)}</Tag>
          ),
        },
        {
          key: 'sharedAt',
          title: t('shared.sharedAt'),
          render: (_, r) => dayjs(r.sharedAt).format('YYYY-MM-DD HH:mm'),
        },
        {
          key: 'actions',
          title: t('columns.action'),
          render: (_, r) => (
            <Button
              size="small"
              type="primary"
              data-testid={`shared-open-${r.datasetId}`}
              onClick={() => navigate(`/userDatasetAnalysis?id=${r.datasetId}`)}
            >
              {t('shared.open')}
            </Button>
          ),
        },
      ]}
    />
  );
}
