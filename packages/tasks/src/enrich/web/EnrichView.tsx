import { Alert, Select, Space, Spin, Table, Tabs, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ORA_COLUMNS } from '@cellcloud/contracts/tasks/enrichment-common';
import { ExportButtons } from '../../_shared/web/ExportButtons';
import { fmtNumber } from '../../_shared/web/format';
import { useTaskHost, type TaskViewProps } from '../../_shared/web/host';
import { useTaskOutput } from '../../_shared/web/useTaskOutput';
import type { EnrichSummary } from '../contract';
import { barOption, cnetOption, dotOption, emapOption, heatOption, type OraPlotData } from './oraCharts';

/**
 * Step 2 result: per group × library the ORA table (clusterProfiler columns, p.adjust < 0.05 and
 * Count ≥ 3) with CSV/XLSX export and the bar, dot, gene–term heat, enrichment map and cnet plots.
 */
export function EnrichView(props: TaskViewProps) {
  const { t } = useTranslation('enrichment');
  const EChart = useTaskHost().components.Chart;
  const summary = props.outputs.summary as EnrichSummary;
  // opens on the first result with terms (a group whose few genes reach no term of the first
  // library would otherwise greet the user with an empty state); all results stay in the list
  const [pick, setPick] = useState(
    (summary.results.find((r) => r.termsReported > 0) ?? summary.results[0])?.table ?? '',
  );
  const current = summary.results.find((r) => r.table === pick);
  const plotsQ = useTaskOutput<{ json: string }, OraPlotData[]>(props, { json: 'plots' });
  const tableQ = useTaskOutput(props, pick ? { table: pick } : null);
  const plots = plotsQ.error ?? plotsQ.data ?? null;
  const table = pick ? (tableQ.error ?? tableQ.data ?? null) : new Error('no table');
  const plot = useMemo(
    () =>
      plots && !(plots instanceof Error) && current
        ? plots.find((p) => p.group === current.group && p.library === current.library)
        : undefined,
    [plots, current],
  );
  const groupLabel = (g: 'group1' | 'group2') =>
    g === 'group1' ? summary.group1.label : summary.group2.label;
  const err = table instanceof Error ? table : plots instanceof Error ? plots : null;
  return (
    <Space orientation="vertical" style={{ width: '100%' }} data-testid="enrich-view">
      <Space wrap>
        <Select
          data-testid="enrich-result"
          value={pick}
          style={{ width: 420 }}
          onChange={setPick}
          options={summary.results.map((r) => ({
            value: r.table,
            label: t('ora.option', {
              group: groupLabel(r.group),
              library: t(`libraries.${r.library}`),
              terms: r.termsReported,
              genes: r.genes,
            }),
          }))}
        />
        {table && !(table instanceof Error) && (
          <ExportButtons
            testId="enrich-export"
            header={table.columns}
            fileName={pick}
            rows={() => table.rows.map((r) => r.map((v) => (typeof v === 'number' ? v : String(v ?? ''))))}
          />
        )}
      </Space>
      {err && <Alert type="error" showIcon title={t('loadFailed', { detail: err.message })} />}
      {!table || !plots ? (
        <Spin />
      ) : table instanceof Error ? null : table.rows.length === 0 ? (
        <Alert type="info" showIcon title={t('ora.none')} data-testid="enrich-none" />
      ) : (
        <>
          <Typography.Text data-testid="enrich-count" data-rows={table.rows.length}>
            {t('ora.count', { terms: table.rows.length })}
          </Typography.Text>
          <Table
            size="small"
            dataSource={table.rows.map((r, i) => ({
              key: String(i),
              ...Object.fromEntries(ORA_COLUMNS.map((c) => [c, r[table.columns.indexOf(c)]])),
            }))}
            columns={ORA_COLUMNS.map((c) => ({
              title: c,
              dataIndex: c,
              render:
                c === 'geneID'
                  ? (v: string) => <span style={{ wordBreak: 'break-all' }}>{v}</span>
                  : fmtNumber,
            }))}
            pagination={{ pageSize: 10, showSizeChanger: false }}
            scroll={{ x: true }}
          />
          {plot && (
            <Tabs
              data-testid="enrich-plots"
              items={[
                {
                  key: 'bar',
                  label: t('ora.plots.bar'),
                  children: (
                    <EChart
                      testId="enrich-bar"
                      option={barOption(plot, '-log10(p.adjust)')}
                      fileName={`${pick}-bar`}
                      height={400}
                    />
                  ),
                },
                {
                  key: 'dot',
                  label: t('ora.plots.dot'),
                  children: (
                    <EChart
                      testId="enrich-dot"
                      option={dotOption(plot, { geneRatio: t('ora.geneRatio'), count: t('ora.countLabel') })}
                      fileName={`${pick}-dot`}
                      height={400}
                    />
                  ),
                },
                {
                  key: 'heat',
                  label: t('ora.plots.heat'),
                  children: (
                    <EChart
                      testId="enrich-heat"
                      option={heatOption(plot)}
                      fileName={`${pick}-heat`}
                      height={420}
                    />
                  ),
                },
                {
                  key: 'emap',
                  label: t('ora.plots.emap'),
                  children: (
                    <EChart
                      testId="enrich-emap"
                      option={emapOption(plot)}
                      fileName={`${pick}-emap`}
                      height={480}
                    />
                  ),
                },
                {
                  key: 'cnet',
                  label: t('ora.plots.cnet'),
                  children: (
                    <EChart
                      testId="enrich-cnet"
                      option={cnetOption(plot)}
                      fileName={`${pick}-cnet`}
                      height={480}
                    />
                  ),
                },
              ]}
            />
          )}
        </>
      )}
    </Space>
  );
}
