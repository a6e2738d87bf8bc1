import { Button, Table, Tabs, Tag, Tooltip, Typography } from 'antd';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import type { DownloadView } from '@cellcloud/contracts/downloads';
import { useDownloads } from '../../api/downloads';
import { formatBytes } from '../files/format';
import { remainingValidity } from './remainingValidity';

const TABS = ['active', 'requested', 'expired'] as const;
type Tab = (typeof TABS)[number];
const STATUS_COLOUR = {
  pending: 'processing',
  approved: 'success',
  declined: 'error',
  expired: 'default',
} as const;

/** /requestedDownloads: active, requested and expired download requests (docs/product/screens.md#routes-after-login, docs/product/states.md#downloads). */
export default function RequestedDownloadsPage() {
  const { t } = useTranslation('downloads');
  const [params, setParams] = useSearchParams();
  const tab = (TABS as readonly string[]).includes(params.get('tab') ?? '')
    ? (params.get('tab') as Tab)
    : 'active';
  return (
    <>
      <Typography.Title level={2}>{t('title')}</Typography.Title>
      <Typography.Paragraph type="secondary">{t('intro')}</Typography.Paragraph>
      <Tabs
        activeKey={tab}
        onChange={(k) => setParams({ tab: k }, { replace: true })}
        items={TABS.map((k) => ({ key: k, label: t(`tabs.${k}`), children: <DownloadTable tab={k} /> }))}
      />
    </>
  );
}

function DownloadTable({ tab }: { tab: Tab }) {
  const { t } = useTranslation('downloads');
  const q = useDownloads(tab);
  const validity = (r: DownloadView) => {
    if (r.status !== 'approved') return t('validDays', { days: r.validDays });
    if (!r.expiresAt) return t('preparing');
    const left = remainingValidity(r.expiresAt);
    return 'days' in left ? t('remainingDays', left) : t('remainingHours', left);
  };
  return (
    <Table<DownloadView>
      size="small"
      rowKey="id"
      loading={q.isLoading}
      data-testid={`downloads-${tab}`}
      dataSource={q.data ?? []}
      locale={{ emptyText: t(`empty.${tab}`) }}
      pagination={{ pageSize: 20, showSizeChanger: false }}
      scroll={{ x: true }}
      columns={[
        { key: 'fileName', title: t('columns.fileName'), dataIndex: 'fileName' },
        { key: 'jobName', title: t('columns.jobName'), dataIndex: 'jobName' },
        { key: 'kind', title: t('columns.kind'), render: (_, r) => t(`kinds.${r.kind}`) },
        {
          key: 'status',
          title: t('columns.status'),
          render: (_, r) => (
            <Tooltip title={r.declineReason ?? undefined}>
              <Tag color={STATUS_COLOUR[r.status]} data-testid="download-status">
                {r.status === 'approved' && r.exportState !== 'ready'
                  ? t(`export.${r.exportState}`)
                  : t(`status.${r.status}`)}
              </Tag>
            </Tooltip>
          ),
        },
        {
          key: 'reason',
          title: t('columns.reason'),
          render: (_, r) =>
            r.declineReason ? (
              <Typography.Text type="danger" data-testid="download-reason">
                {r.declineReason}
              </Typography.Text>
            ) : null,
        },
        {
          key: 'requestedAt',
          title: t('columns.requestedAt'),
          render: (_, r) => dayjs(r.requestedAt).format('YYYY-MM-DD HH:mm'),
        },
        { key: 'validDays', title: t('columns.validDays'), render: (_, r) => validity(r) },
        {
          key: 'size',
          title: t('columns.size'),
          render: (_, r) => (r.fileSize === null ? '' : formatBytes(r.fileSize)),
        },
        {
          key: 'action',
          title: t('columns.action'),
          render: (_, r) =>
            r.url ? (
              <Button type="link" href={r.url} download={r.fileName} data-testid="download-link">
                {t('download')}
              </Button>
            ) : null,
        },
      ]}
    />
  );
}
