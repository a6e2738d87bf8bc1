import { useState } from 'react';
import { App, Button, Empty, Popconfirm, Space, Table, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import type { JobKind, JobView } from '@cellcloud/contracts/jobs';
import { useDeleteJob, useJobs, useReeditJob, useResumeJob, useSuspendJob } from '../../api/jobs';
import { ShareButton } from '../analyses/ShareDialog';
import { JobStatusTag } from './JobStatusTag';

const time = (v: string | null) => (v ? dayjs(v).format('YYYY-MM-DD HH:mm:ss') : '—');

export function formatDuration(seconds: number | null): string {
  if (seconds === null) return '—';
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return [h, m, s].map((x) => String(x).padStart(2, '0')).join(':');
}

/**
 * My Analyses job list of one kind (integrated = several samples, custom = one sample): job
 * name, analysis id, live status, submission / finish / running time and the job actions.
 */
export function JobsTable({
  kind,
  empty,
  synEcoSysOnly = false,
}: {
  kind: JobKind;
  empty: React.ReactNode;
  /** Only analyses that integrated public (SynEcoSys) datasets. */
  synEcoSysOnly?: boolean;
}) {
  const { t } = useTranslation('jobs');
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [page, setPage] = useState(1);
  const jobs = useJobs(kind, page, 10, synEcoSysOnly);
  const suspend = useSuspendJob();
  const resume = useResumeJob();
  const reedit = useReeditJob();
  const del = useDeleteJob();

  const actions = (j: JobView) => (
    <Space wrap size={4}>
      {j.status === 'completed' && (
        <Button
          size="small"
          type="primary"
          data-testid={`job-open-${j.id}`}
          onClick={() => navigate(`/userDatasetAnalysis?id=${j.resultId}`)}
        >
          {t('actions.open')}
        </Button>
      )}
      {j.status === 'completed' && <ShareButton datasetId={j.resultId} jobName={j.jobName} />}
      {(j.status === 'queued' || j.status === 'running' || j.status === 'submitted') && (
        <Button size="small" onClick={() => suspend.mutate(j.id)}>
          {t('actions.suspend')}
        </Button>
      )}
      {(j.status === 'suspended' || j.status === 'error') && (
        <Button size="small" onClick={() => resume.mutate(j.id)}>
          {t('actions.resume')}
        </Button>
      )}
      <Button
        size="small"
        onClick={() =>
          reedit.mutate(j.id, {
            onSuccess: (r) => navigate(`/integrateLocalData?draftId=${(r as { draftId: string }).draftId}`),
          })
        }
      >
        {t('actions.reedit')}
      </Button>
      <Popconfirm
        title={t('actions.deleteConfirm')}
        onConfirm={() => del.mutate(j.id, { onSuccess: () => void message.success(t('actions.deleted')) })}
      >
        <Button size="small" danger>
          {t('actions.delete')}
        </Button>
      </Popconfirm>
    </Space>
  );

  return (
    <Table<JobView>
      data-testid={`jobs-${kind}`}
      size="middle"
      rowKey="id"
      loading={jobs.isLoading}
      dataSource={jobs.data?.rows ?? []}
      scroll={{ x: true }}
      pagination={{
        current: page,
        pageSize: 10,
        total: jobs.data?.total ?? 0,
        onChange: setPage,
        hideOnSinglePage: true,
      }}
      locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={empty} /> }}
      columns={[
        {
          key: 'jobName',
          title: t('columns.jobName'),
          render: (_, j) => <Typography.Text strong>{j.jobName}</Typography.Text>,
        },
        { key: 'analysisId', title: t('columns.analysisId'), dataIndex: 'analysisId' },
        { key: 'status', title: t('columns.status'), render: (_, j) => <JobStatusTag job={j} /> },
        { key: 'submissionTime', title: t('columns.submissionTime'), render: (_, j) => time(j.submittedAt) },
        { key: 'finishTime', title: t('columns.finishTime'), render: (_, j) => time(j.finishedAt) },
        {
          key: 'runningTime',
          title: t('columns.runningTime'),
          render: (_, j) => formatDuration(j.runningSeconds),
        },
        { key: 'actions', title: t('columns.actions'), render: (_, j) => actions(j) },
      ]}
    />
  );
}
