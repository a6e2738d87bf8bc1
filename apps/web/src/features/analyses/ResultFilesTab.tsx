import { App, Button, Empty, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import dayjs from 'dayjs';
import type { ResultFileView } from '@cellcloud/contracts/my-files';
import { useRequestDownload } from '../../api/downloads';
import { useResultFiles } from '../../api/myFiles';
import { formatBytes } from '../files/format';

/** My Analyses → result files: every file of finished analyses and tasks; downloading needs a request. */
export function ResultFilesTab() {
  const { t } = useTranslation('analyses');
  const q = useResultFiles();
  const req = useRequestDownload();
  const { message } = App.useApp();
  return (
    <Table<ResultFileView>
      data-testid="result-files"
      size="middle"
      rowKey="id"
      loading={q.isLoading}
      dataSource={q.data ?? []}
      scroll={{ x: true }}
      pagination={(q.data?.length ?? 0) > 10 ? { pageSize: 10 } : false}
      locale={{
        emptyText: (
          <Empty
            image={Empty.PRESENTED_IMAGE_SIMPLE}
            description={<Typography.Text>{t('results.empty')}</Typography.Text>}
          />
        ),
      }}
      columns={[
        {
          key: 'fileName',
          title: t('columns.fileName'),
          render: (_, f) => (f.task ? `${f.task} / ${f.fileName}` : f.fileName),
        },
        {
          key: 'jobName',
          title: t('columns.jobName'),
          render: (_, f) => (
            <Link to={`/userDatasetAnalysis?id=${f.datasetId}`}>{`${f.jobName} (${f.analysisId})`}</Link>
          ),
        },
        { key: 'size', title: t('columns.size'), render: (_, f) => formatBytes(f.size) },
        {
          key: 'producedOn',
          title: t('columns.producedOn'),
          render: (_, f) => dayjs(f.producedAt).format('YYYY-MM-DD HH:mm'),
        },
        {
          key: 'download',
          title: t('columns.download'),
          render: (_, f) =>
            f.downloadKind ? (
              <Button
                size="small"
                data-testid="result-file-request"
                loading={
                  req.isPending &&
                  req.variables?.datasetId === f.datasetId &&
                  req.variables.kind === f.downloadKind
                }
                onClick={() =>
                  req.mutate(
                    { datasetId: f.datasetId, kind: f.downloadKind! },
                    { onSuccess: () => void message.success(t('results.requested')) },
                  )
                }
              >
                {t('results.request')}
              </Button>
            ) : (
              <Typography.Text type="secondary">{t('results.inExplorer')}</Typography.Text>
            ),
        },
      ]}
    />
  );
}
