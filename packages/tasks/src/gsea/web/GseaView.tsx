import { Alert, Select, Space, Spin, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { GSEA_COLUMNS } from '@cellcloud/contracts/tasks/enrichment-common';
import { ExportButtons } from '../../_shared/web/ExportButtons';
import { fmtNumber } from '../../_shared/web/format';
import { useTaskHost, type TaskViewProps } from '../../_shared/web/host';
import { useTaskOutput } from '../../_shared/web/useTaskOutput';
import type { GseaSummary } from '../contract';
import { runningOption, tableOption, type GseaRunning } from './gseaCharts';

/**
 * GSEA result: the table of every tested set (fgsea columns) with export, the running-score plot of
 * a chosen term (NES, p, p.adjust) and the table plot of the plotted terms. Re-plotting other terms
 * is a new run with `selectedTerms` (step 2).
 */
export function GseaView(props: TaskViewProps) {
  const { t } = useTranslation('enrichment');
  const EChart = useTaskHost().components.Chart;
  const summary = props.outputs.summary as GseaSummary;
  const tableQ = useTaskOutput(props, { table: 'gsea' });
  const runningQ = useTaskOutput<{ json: string }, GseaRunning>(props, { json: 'running' });
  const table = tableQ.error ?? tableQ.data ?? null;
  const running = runningQ.error ?? runningQ.data ?? null;
  const [term, setTerm] = useState(0);
  if (table instanceof Error || running instanceof Error) {
    return (
      <Alert
        type="error"
        showIcon
        title={t('loadFailed', { detail: (table instanceof Error ? table : (running as Error)).message })}
      />
    );
  }
  if (!table || !running) return <Spin />;
  const labels = { score: t('gsea.score'), rank: t('gsea.rank'), metric: t('gsea.metric') };
  return (
    <Space orientation="vertical" style={{ width: '100%' }} data-testid="gsea-view">
      <Typography.Text>
        {t('gsea.summary', {
          g1: summary.group1.label,
          g2: summary.group2.label,
          genes: summary.rankedGenes,
          sets: summary.setsTested,
          significant: summary.significant,
          nperm: summary.nperm,
          seed: summary.seed,
        })}
      </Typography.Text>
      <ExportButtons
        testId="gsea-export"
        header={table.columns}
        fileName="gsea"
        rows={() => table.rows.map((r) => r.map((v) => (typeof v === 'number' ? v : String(v ?? ''))))}
      />
      <Table
        size="small"
        dataSource={table.rows.map((r, i) => ({
          key: String(i),
          ...Object.fromEntries(GSEA_COLUMNS.map((c) => [c, r[table.columns.indexOf(c)]])),
        }))}
        columns={GSEA_COLUMNS.filter((c) => c !== 'core_enrichment').map((c) => ({
          title: c,
          dataIndex: c,
          render: fmtNumber,
        }))}
        pagination={{ pageSize: 10, showSizeChanger: false }}
        scroll={{ x: true }}
      />
      {running.terms.length > 0 && (
        <>
          <Select
            data-testid="gsea-term"
            value={term}
            style={{ width: 420 }}
            onChange={setTerm}
            options={running.terms.map((x, i) => ({ value: i, label: x.Description }))}
          />
          <EChart
            testId="gsea-running"
            option={runningOption(running, Math.min(term, running.terms.length - 1), labels)}
            fileName="gsea-running"
            height={460}
          />
          <Typography.Title level={5}>{t('gsea.tablePlot')}</Typography.Title>
          <EChart
            testId="gsea-table-plot"
            option={tableOption(running, labels.rank)}
            fileName="gsea-table"
            height={60 + 28 * running.terms.length}
          />
        </>
      )}
    </Space>
  );
}
