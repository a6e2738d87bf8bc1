import { App, Button, Empty, Space, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import dayjs from 'dayjs';
import type { ResultFileView } from '@cellcloud/contracts/my-files';
import { useDownloads, useRequestDownload } from '../../api/downloads';
import { useResultFiles } from '../../api/myFiles';
import { formatBytes } from '../files/format';
import { fileActions, type FileAction } from './resultFileActions';

/**
 * My Analyses → result files: every file of finished analyses and tasks with size and date; the
 * exports of a file (h5ad and Seurat bundle of analysis.h5ad, the marker table) are requested
 * here and, once approved and prepared, downloaded from here by their signed link; task files
 * open in the explorer.
 */
export function ResultFilesTab() {
  const { t } = useTranslation('analyses');
  const q = useResultFiles();
  // the user's requests, to show each export's state and its link once ready
  const active = useDownloads('active');
  const requested = useDownloads('requested');
  const downloads = [...(active.data ?? []), ...(requested.data ?? [])];
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
              <Space direction="vertical" size={4}>
                {fileActions(f, downloads).map((a) => (
                  <FileActionView key={a.kind} file={f} action={a} />
                ))}
              </Space>
            ) : (
              <Link to={`/userDatasetAnalysis?id=${f.datasetId}`}>{t('results.inExplorer')}</Link>
            ),
        },
      ]}
    />
  );
}

/** One export of a result file: request it, its request's state, or its download link. */
function FileActionView({ file, action }: { file: ResultFileView; action: FileAction }) {
  const { t } = useTranslation(['analyses', 'downloads']);
  const req = useRequestDownload();
  const { message } = App.useApp();
  const label = t(`downloads:kinds.${action.kind}`);
  const testId = `result-file-${action.kind}`;
  if (action.state === 'ready') {
    const hours = action.expiresAt ? dayjs(action.expiresAt).diff(dayjs(), 'hour') : null;
    return (
      <Space size={4} data-testid={testId}>
        <Button size="small" type="link" href={action.url} download data-testid="result-file-download">
          {t('downloads:download')}: {label}
        </Button>
        {hours !== null && (
          <Typography.Text type="secondary">
            {hours >= 24
              ? t('downloads:remainingDays', { days: Math.floor(hours / 24) })
              : t('downloads:remainingHours', { hours: Math.max(0, hours) })}
          </Typography.Text>
        )}
      </Space>
    );
  }
  if (action.state !== 'request')
    return (
      <Space size={4} data-testid={testId}>
        {label}
        <Tag>
          {action.state === 'pending' ? t('downloads:status.pending') : t('downloads:export.running')}
        </Tag>
      </Space>
    );
  return (
    <Button
      size="small"
      data-testid="result-file-request"
      data-kind={action.kind}
      loading={req.isPending}
      onClick={() =>
        req.mutate(
          { datasetId: file.datasetId, kind: action.kind },
          { onSuccess: () => void message.success(t('results.requested')) },
        )
      }
    >
      {t('results.request')}: {label}
    </Button>
  );
}
