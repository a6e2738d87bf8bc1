import { Button, Empty, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import type { ProjectGroupView } from '@cellcloud/contracts/my-files';
import { useRetryUpload } from '../../api/files';
import { useProjectFiles } from '../../api/myFiles';
import { formatBytes } from '../files/format';

type Sample = ProjectGroupView['samples'][number];

/** My Analyses → project files: CeleScope imports grouped by project, with re-import of failed ones. */
export function ProjectFilesTab() {
  const { t } = useTranslation(['analyses', 'files']);
  const q = useProjectFiles();
  const retry = useRetryUpload();
  return (
    <Table<ProjectGroupView>
      data-testid="project-files"
      size="middle"
      rowKey="project"
      loading={q.isLoading}
      dataSource={q.data ?? []}
      pagination={false}
      locale={{
        emptyText: (
          <Empty
            image={Empty.PRESENTED_IMAGE_SIMPLE}
            description={<Typography.Text>{t('projects.empty')}</Typography.Text>}
          />
        ),
      }}
      expandable={{ defaultExpandAllRows: true, rowExpandable: () => true }}
      columns={[
        { key: 'projectName', title: t('columns.projectName'), dataIndex: 'project' },
        { key: 'samples', title: t('columns.samples'), render: (_, g) => g.samples.length },
      ]}
      expandedRowRender={(g) => (
        <Table<Sample>
          size="small"
          rowKey="id"
          pagination={false}
          dataSource={g.samples}
          columns={[
            { key: 'sampleId', title: t('columns.sampleId'), dataIndex: 'sampleName' },
            {
              key: 'status',
              title: t('columns.status'),
              render: (_, s) => <Tag>{t(`projects.state.${s.state}`)}</Tag>,
            },
            { key: 'size', title: t('columns.size'), render: (_, s) => formatBytes(s.size) },
            {
              key: 'storageTime',
              title: t('columns.storageTime'),
              render: (_, s) => dayjs(s.importedAt).format('YYYY-MM-DD HH:mm'),
            },
            {
              key: 'reimport',
              title: t('columns.action'),
              render: (_, s) => (
                <Button
                  size="small"
                  disabled={!s.retryable}
                  loading={retry.isPending && retry.variables === s.id}
                  onClick={() => retry.mutate(s.id)}
                >
                  {t('projects.reimport')}
                </Button>
              ),
            },
          ]}
        />
      )}
    />
  );
}
