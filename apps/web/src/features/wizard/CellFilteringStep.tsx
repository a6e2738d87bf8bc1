import { useMemo } from 'react';
import { Alert, Button, Radio, Result, Space, Spin, Table, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { cellFilteringResult, effectiveThresholds, keptCells } from '@cellcloud/contracts/wizard';
import { startCellFiltering, useCellFiltering, wizardKeys } from '../../api/wizard';
import { QcDistributions } from './QcDistributions';
import { ThresholdControls } from './ThresholdControls';
import type { WizardState } from './useWizard';

/**
 * Step 2: skip (default) or evaluate cell filtering. Evaluation runs the preprocessing job
 * (not started → running, the user may leave → failed with retry | done) and then shows the
 * before/after distributions with adjustable thresholds and a live count of kept cells.
 */
export function CellFilteringStep({ w }: { w: WizardState }) {
  const { t } = useTranslation('wizard');
  const qc = useQueryClient();
  const evaluate = w.draft.param.cellFilteringEvaluation === 'evaluate';
  const state = useCellFiltering(w.draftId ?? null, evaluate);
  const status = state.data?.status ?? 'notStarted';
  const parsed = useMemo(
    () => (state.data?.result ? cellFilteringResult.safeParse(state.data.result) : null),
    [state.data?.result],
  );
  const samples = parsed?.success ? parsed.data.samples : [];
  const thresholds = samples.map((s) => effectiveThresholds(w.draft.param, s));
  const kept = useMemo(() => samples.map((s, i) => keptCells(s, thresholds[i]!)), [samples, thresholds]);

  const start = async () => {
    const id = await w.save();
    await startCellFiltering(id);
    w.setCellFilteringStatus('running');
    await qc.invalidateQueries({ queryKey: wizardKeys.cellFiltering(id) });
  };

  const shown = thresholds[0] ?? {
    geneRange: w.draft.param.geneRange,
    umiRange: w.draft.param.umiRange,
    mitochondrial: w.draft.param.mitochondrial,
    ribosomal: w.draft.param.ribosomal,
  };

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Radio.Group
        data-testid="cell-filtering-mode"
        value={w.draft.param.cellFilteringEvaluation}
        onChange={(e) => w.setParam({ cellFilteringEvaluation: e.target.value as 'skip' | 'evaluate' })}
        options={[
          { value: 'skip', label: t('cellFiltering.skip') },
          { value: 'evaluate', label: t('cellFiltering.evaluate') },
        ]}
      />
      {!evaluate && (
        <Typography.Paragraph type="secondary">{t('cellFiltering.skipHint')}</Typography.Paragraph>
      )}
      {evaluate && status === 'notStarted' && (
        <Button type="primary" data-testid="cell-filtering-start" onClick={() => void start()}>
          {t('cellFiltering.start')}
        </Button>
      )}
      {evaluate && status === 'running' && (
        <Alert
          type="info"
          showIcon
          icon={<Spin size="small" />}
          title={t('cellFiltering.running')}
          data-testid="cell-filtering-running"
        />
      )}
      {evaluate && status === 'failed' && (
        <Result
          status="error"
          title={t('cellFiltering.failed')}
          subTitle={state.data?.message}
          extra={
            <Button type="primary" onClick={() => void start()}>
              {t('cellFiltering.retry')}
            </Button>
          }
        />
      )}
      {(!evaluate || status === 'done') && (
        <ThresholdControls param={w.draft.param} shown={shown} onChange={w.setParam} />
      )}
      {evaluate && status === 'done' && samples.length > 0 && (
        <>
          <Table
            data-testid="cell-filtering-kept"
            size="small"
            rowKey="name"
            pagination={false}
            dataSource={samples.map((s, i) => ({
              name: s.name,
              before: s.cells,
              after: kept[i]!.filter(Boolean).length,
            }))}
            columns={[
              { key: 'name', title: t('fields.sampleName'), dataIndex: 'name' },
              { key: 'before', title: t('qc.cellsBefore'), dataIndex: 'before' },
              {
                key: 'after',
                title: t('qc.cellsAfter'),
                dataIndex: 'after',
                render: (v: number) => <span data-testid="kept-count">{v}</span>,
              },
            ]}
          />
          <QcDistributions samples={samples} kept={kept} />
        </>
      )}
    </Space>
  );
}
