import { Button, Progress, Space, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { UploadRow } from '@cellcloud/contracts/files';
import { isSending, useRetryUpload } from '../../api/files';
import { ResumeUpload } from './ResumeUpload';

const COLORS = {
  uploading: 'processing',
  parsing: 'processing',
  completed: 'success',
  failed: 'error',
} as const;

/** docs/product/states.md#uploads upload state: progress while uploading/parsing, the reason and Retry when failed. */
export function UploadStateCell({ row }: { row: UploadRow }) {
  const { t } = useTranslation('files');
  const retry = useRetryUpload();
  const unusable = row.state === 'completed' && row.properties && !row.properties.usable;
  return (
    <Space orientation="vertical" size={2} style={{ minWidth: 160 }} data-testid="upload-state">
      <Tag color={COLORS[row.state]}>{t(`state.${row.state}`)}</Tag>
      {(row.state === 'uploading' || row.state === 'parsing') && (
        <Progress percent={Math.floor(row.progress * 100)} size="small" status="active" />
      )}
      {row.state === 'uploading' && !row.files.some((f) => isSending(f.slot)) && <ResumeUpload row={row} />}
      {row.failure && (
        <>
          {/* long reasons are cut with an ellipsis; the whole text is in the tooltip (issue 22 item 3) */}
          <Typography.Text
            type="danger"
            style={{ maxWidth: 260 }}
            ellipsis={{ tooltip: row.failure.message }}
            data-testid="upload-failure"
          >
            {row.failure.message}
          </Typography.Text>
          {row.failure.retryable && (
            <Button size="small" loading={retry.isPending} onClick={() => retry.mutate(row.id)}>
              {t('uploads.retry')}
            </Button>
          )}
        </>
      )}
      {unusable && (
        <Tooltip title={t('unusable.cells', { cells: row.properties!.cells })}>
          <Tag color="warning">{t('uploads.unusable')}</Tag>
        </Tooltip>
      )}
    </Space>
  );
}
