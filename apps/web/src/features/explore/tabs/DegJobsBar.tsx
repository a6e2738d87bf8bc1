import { Alert, Button, Select, Space, Tag, message } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DegTaskView } from '@cellcloud/contracts/explore-deg';
import { useCalculateDeg } from '../../../api/exploreJobs';
import { CompareDialog } from './CompareDialog';
import type { Grouping } from './degGroupings';

interface Props {
  datasetId: string;
  groupings: Grouping[];
  selection: number[];
  tasks: DegTaskView[];
  onRefresh: () => void;
}

/** Job-backed DE actions: cluster genes of a grouping, a new comparison, refresh (results show after it, docs/product/states.md#cluster-genes). */
export function DegJobsBar({ datasetId, groupings, selection, tasks, onRefresh }: Props) {
  const { t } = useTranslation('explore');
  const calc = useCalculateDeg(datasetId);
  const [grouping, setGrouping] = useState<string | undefined>(
    groupings.find((g) => g.value.startsWith('subset:'))?.value ?? groupings[0]?.value,
  );
  const [comparing, setComparing] = useState(false);
  const running = tasks.filter((x) => x.status === 'running').length;
  const failed = tasks[0]?.status === 'failed' ? tasks[0] : null;
  const start = () =>
    grouping &&
    calc.mutate(
      { mode: 'cluster-markers', grouping },
      {
        onSuccess: () => void message.success(t('deg.jobs.started')),
        onError: (e) => void message.error(e.message),
      },
    );
  return (
    <Space orientation="vertical" style={{ width: '100%' }} data-testid="deg-jobs">
      <Space wrap>
        <Select
          data-testid="deg-jobs-grouping"
          value={grouping}
          style={{ width: 200 }}
          onChange={setGrouping}
          options={groupings.map((g) => ({ value: g.value, label: g.label }))}
        />
        <Button
          data-testid="deg-jobs-cluster-genes"
          loading={calc.isPending}
          disabled={!grouping}
          onClick={start}
        >
          {t('deg.jobs.clusterGenes')}
        </Button>
        <Button data-testid="deg-jobs-compare" onClick={() => setComparing(true)}>
          {t('deg.jobs.compare')}
        </Button>
        <Button data-testid="deg-jobs-refresh" onClick={onRefresh}>
          {t('deg.jobs.refresh')}
        </Button>
        {running > 0 && (
          <Tag color="processing" data-testid="deg-jobs-running">
            {t('deg.jobs.running', { count: running })}
          </Tag>
        )}
      </Space>
      {failed && <Alert type="error" showIcon data-testid="deg-jobs-failed" title={t('deg.jobs.failed')} />}
      {comparing && (
        <CompareDialog
          datasetId={datasetId}
          groupings={groupings}
          selection={selection}
          onClose={() => setComparing(false)}
        />
      )}
    </Space>
  );
}
