import { Progress, Space, Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import type { JobView } from '@cellcloud/contracts/jobs';
import { jobStepKey } from './jobStepKey';

const COLORS: Record<JobView['status'], string> = {
  submitted: 'default',
  queued: 'processing',
  running: 'blue',
  completed: 'success',
  error: 'error',
  suspended: 'warning',
};

/** A job's status everywhere it appears: tag, live progress % and current step while running. */
export function JobStatusTag({ job }: { job: JobView }) {
  const { t, i18n } = useTranslation('jobs');
  const tag = (
    <Tag color={COLORS[job.status]} data-testid={`job-status-${job.id}`} data-status={job.status}>
      {t(`status.${job.status}`)}
    </Tag>
  );
  if (job.status === 'running') {
    const step = jobStepKey(job.step, (k) => i18n.exists(k));
    return (
      <Space size={4} orientation="vertical" style={{ minWidth: 140 }}>
        {tag}
        <Progress percent={Math.round(job.progress * 100)} size="small" />
        {step && <span style={{ fontSize: 12, opacity: 0.7 }}>{t('step', { step: t(step) })}</span>}
      </Space>
    );
  }
  if (job.status === 'error' && job.message) return <Tooltip title={job.message}>{tag}</Tooltip>;
  return tag;
}
