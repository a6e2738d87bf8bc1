import { useState } from 'react';
import { Button, Progress, Radio, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import type { AdminJobView } from '@cellcloud/contracts/admin';
import { useAdminJobs, useJobAction } from '../../api/admin';

/** Jobs: running (cancel) or failed with their reasons (re-queue), of every user; public ingests listed without actions. */
export function AdminJobsTab() {
  const { t } = useTranslation('admin');
  const [status, setStatus] = useState<'running' | 'error'>('running');
  const jobs = useAdminJobs(status);
  const act = useJobAction();
  return (
    <>
      <Radio.Group
        value={status}
        onChange={(e) => setStatus(e.target.value as 'running' | 'error')}
        options={[
          { value: 'running', label: t('jobs.running') },
          { value: 'error', label: t('jobs.failed') },
        ]}
        style={{ marginBottom: 12 }}
      />
      <Table<AdminJobView>
        scroll={{ x: 'max-content' }}
        size="small"
        rowKey="id"
        data-testid="admin-jobs"
        loading={jobs.isLoading}
        dataSource={jobs.data ?? []}
        locale={{ emptyText: t('jobs.empty') }}
        columns={[
          { key: 'analysisId', title: t('jobs.analysisId'), dataIndex: 'analysisId' },
          { key: 'jobName', title: t('jobs.jobName'), dataIndex: 'jobName' },
          { key: 'user', title: t('jobs.user'), dataIndex: 'username' },
          {
            key: 'state',
            title: status === 'running' ? t('jobs.progress') : t('jobs.reason'),
            render: (_, j) =>
              status === 'running' ? (
                <Progress percent={Math.round(j.progress * 100)} size="small" />
              ) : (
                j.message
              ),
          },
          {
            key: 'submittedAt',
            title: t('jobs.submittedAt'),
            render: (_, j) => dayjs(j.submittedAt).format('YYYY-MM-DD HH:mm'),
          },
          {
            key: 'action',
            title: t('jobs.action'),
            // public database ingests (issue 20) are run and retried by the admin tool / worker
            render: (_, j) =>
              j.kind === 'publicIngest' ? null : (
                <Button
                  size="small"
                  danger={status === 'running'}
                  loading={act.isPending && act.variables?.id === j.id}
                  onClick={() =>
                    act.mutate({ id: j.id, action: status === 'running' ? 'cancel' : 'requeue' })
                  }
                >
                  {status === 'running' ? t('jobs.cancel') : t('jobs.requeue')}
                </Button>
              ),
          },
        ]}
      />
    </>
  );
}
