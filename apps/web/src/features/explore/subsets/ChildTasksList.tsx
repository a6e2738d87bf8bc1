import { Button, Space, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { ChildTaskView } from '@cellcloud/contracts/explore-deg';
import type { SubsetView } from '@cellcloud/contracts/explore';
import { useChildTasks } from '../../../api/exploreJobs';

const STATUS_COLOUR: Record<string, string> = {
  completed: 'success',
  error: 'error',
  running: 'processing',
  queued: 'processing',
  submitted: 'default',
  suspended: 'warning',
};
const STATUS_KEYS: Record<string, string> = {
  completed: 'subsets.childState.completed',
  error: 'subsets.childState.error',
  running: 'subsets.childState.running',
  queued: 'subsets.childState.queued',
  submitted: 'subsets.childState.submitted',
  suspended: 'subsets.childState.suspended',
};

/** Child (sub-celltype) analyses of the dataset; a completed one opens in /userSubCelltypeDatasetAnalysis. */
export function ChildTasksList({ datasetId, subsets }: { datasetId: string; subsets: SubsetView[] }) {
  const { t } = useTranslation('explore');
  const children = useChildTasks(datasetId);
  if (!children.data?.length) return null;
  const subsetName = (id: string) => subsets.find((s) => s.id === id)?.name ?? id;
  return (
    <div data-testid="child-tasks" style={{ marginTop: 12 }}>
      <Space style={{ marginBottom: 8 }}>
        <Typography.Text strong>{t('subcluster.children')}</Typography.Text>
        <Button size="small" data-testid="child-tasks-refresh" onClick={() => void children.refetch()}>
          {t('deg.jobs.refresh')}
        </Button>
      </Space>
      <Table
        size="small"
        rowKey="childId"
        pagination={false}
        dataSource={children.data}
        columns={[
          { title: t('subcluster.jobName'), dataIndex: 'jobName' },
          { title: t('subsets.title'), render: (_: unknown, c: ChildTaskView) => subsetName(c.subsetId) },
          { title: t('subsets.cells'), dataIndex: 'nCells' },
          {
            title: t('subcluster.status'),
            render: (_: unknown, c: ChildTaskView) => (
              <Tag color={STATUS_COLOUR[c.status] ?? 'default'}>
                {t(STATUS_KEYS[c.status] ?? 'subsets.childState.error')}
              </Tag>
            ),
          },
          {
            title: t('subsets.actions'),
            render: (_: unknown, c: ChildTaskView) =>
              c.status === 'completed' ? (
                <Link
                  data-testid={`child-open-${c.childId}`}
                  to={`/userSubCelltypeDatasetAnalysis?id=${encodeURIComponent(c.childId)}&parent=${encodeURIComponent(c.parentId)}`}
                >
                  {t('subcluster.open')}
                </Link>
              ) : null,
          },
        ]}
      />
    </div>
  );
}
