import type { WebTaskViewProps } from '../types';
import { useTaskResultSource } from './useTaskResultSource';
import { Alert, Input, Segmented, Space, Spin, Switch, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LIMITS } from '@cellcloud/contracts/constants';
import type { DegGroupsSummary } from '@cellcloud/contracts/tasks/deg-groups';
import { DEG_GROUP_COLUMNS } from '@cellcloud/contracts/tasks/enrichment-common';
import { EChart } from '../../charts/EChart';
import type { ChartOption } from '../../charts/echarts';
import { passesDegFilter } from '../../stats/degFilter';
import { ExportButtons } from './ExportButtons';
import { fmtNumber, useTaskOutput, type TaskResultSource } from './taskResult';

type Col = (typeof DEG_GROUP_COLUMNS)[number];
type Row = Record<Col, string | number> & { key: string };

/**
 * Step 1 result: per direction (group 1 up / group 2 up) the DEG table with the SPEC §5 display
 * filter, gene search and CSV/XLSX export of the shown rows, and the volcano plot.
 */
export function DegGroupsView({ source }: { source: TaskResultSource }) {
  const { t } = useTranslation('enrichment');
  const summary = source.summary as DegGroupsSummary;
  const [dir, setDir] = useState<'group1' | 'group2'>('group1');
  const [filter, setFilter] = useState(true);
  const [search, setSearch] = useState('');
  const table = useTaskOutput(() => source.table(dir), [source, dir]);
  const rows = useMemo<Row[]>(() => {
    if (!table || table instanceof Error) return [];
    const idx = DEG_GROUP_COLUMNS.map((c) => table.columns.indexOf(c));
    return table.rows.map((r, i) => {
      const o = { key: String(i) } as Row;
      DEG_GROUP_COLUMNS.forEach((c, k) => (o[c] = r[idx[k]!] as string | number));
      return o;
    });
  }, [table]);
  const q = search.trim().toUpperCase();
  const shown = useMemo(
    () =>
      rows.filter(
        (r) =>
          (!filter ||
            passesDegFilter({
              cluster: String(r.cluster),
              gene: String(r.gene),
              avgExpr: +r.avgExpr,
              log2fc: +r.log2fc,
              pct1: +r.pct1,
              pct2: +r.pct2,
              zscore: +r.zscore,
              pval: +r.pval,
              padj: +r.padj,
            })) &&
          (!q || String(r.gene).toUpperCase().includes(q)),
      ),
    [rows, filter, q],
  );
  if (table instanceof Error)
    return <Alert type="error" showIcon title={t('loadFailed', { detail: table.message })} />;
  const header = DEG_GROUP_COLUMNS.map((c) => t(`deg.columns.${c}`));
  const columns: ColumnsType<Row> = DEG_GROUP_COLUMNS.map((c) => ({
    title: t(`deg.columns.${c}`),
    dataIndex: c,
    sorter: (a: Row, b: Row) =>
      typeof a[c] === 'number'
        ? (a[c] as number) - (b[c] as number)
        : String(a[c]).localeCompare(String(b[c])),
    render: fmtNumber,
  }));
  const sig = (r: Row) => +r.padj <= LIMITS.degFilter.padj && Math.abs(+r.log2fc) >= LIMITS.degFilter.log2fc;
  const point = (r: Row) => [
    Math.max(-20, Math.min(20, +r.log2fc)),
    -Math.log10(Math.max(+r.padj, 1e-300)),
    r.gene,
  ];
  const volcano: ChartOption = {
    animation: false,
    tooltip: { formatter: (p: unknown) => String((p as { value: unknown[] }).value[2]) },
    legend: { data: [t('deg.up'), t('deg.down'), t('deg.notSignificant')] },
    grid: { left: 60, right: 20, top: 40, bottom: 50 },
    xAxis: { type: 'value', name: 'log2FC', nameLocation: 'middle', nameGap: 28 },
    yAxis: { type: 'value', name: '-log10(padj)' },
    series: [
      {
        type: 'scatter',
        name: t('deg.up'),
        symbolSize: 5,
        itemStyle: { color: '#d62728' },
        data: rows.filter((r) => sig(r) && +r.log2fc > 0).map(point),
      },
      {
        type: 'scatter',
        name: t('deg.down'),
        symbolSize: 5,
        itemStyle: { color: '#1f77b4' },
        data: rows.filter((r) => sig(r) && +r.log2fc < 0).map(point),
      },
      {
        type: 'scatter',
        name: t('deg.notSignificant'),
        symbolSize: 3,
        itemStyle: { color: '#bbbbbb' },
        data: rows
          .filter((r) => !sig(r))
          .slice(0, 40_000)
          .map(point),
      },
    ],
  };
  return (
    <Space orientation="vertical" style={{ width: '100%' }} data-testid="deg-groups-view">
      <Typography.Text>
        {t('deg.groups', {
          g1: summary.group1.label,
          n1: summary.group1.cells,
          g2: summary.group2.label,
          n2: summary.group2.cells,
        })}
      </Typography.Text>
      <Space wrap>
        <Segmented
          data-testid="deg-groups-direction"
          value={dir}
          onChange={(v) => setDir(v as 'group1' | 'group2')}
          options={[
            { value: 'group1', label: t('deg.upIn', { group: summary.group1.label }) },
            { value: 'group2', label: t('deg.upIn', { group: summary.group2.label }) },
          ]}
        />
        <Input.Search
          allowClear
          placeholder={t('deg.search')}
          style={{ width: 180 }}
          onChange={(e) => setSearch(e.target.value)}
          onSearch={setSearch}
        />
        <Space size={4}>
          <Switch data-testid="deg-groups-filter" checked={filter} onChange={setFilter} />
          {t('deg.filter', {
            log2fc: LIMITS.degFilter.log2fc,
            padj: LIMITS.degFilter.padj,
            pct: LIMITS.degFilter.pct,
          })}
        </Space>
        <ExportButtons
          testId="deg-groups-export"
          header={header}
          fileName={`deg-${dir}`}
          rows={() => shown.map((r) => DEG_GROUP_COLUMNS.map((c) => r[c]))}
        />
      </Space>
      {table === null ? (
        <Spin />
      ) : (
        <>
          <Typography.Text data-testid="deg-groups-count" data-shown={shown.length} data-total={rows.length}>
            {t('deg.count', { shown: shown.length, total: rows.length })}
          </Typography.Text>
          <Table
            size="small"
            dataSource={shown}
            columns={columns}
            pagination={{ pageSize: 15, showSizeChanger: false }}
            scroll={{ x: true }}
          />
          <Typography.Title level={5}>{t('deg.volcano')}</Typography.Title>
          <EChart option={volcano} fileName={`volcano-${dir}`} height={380} testId="deg-groups-volcano" />
        </>
      )}
      {summary.pseudobulk && <PseudobulkTable source={source} />}
    </Space>
  );
}

function PseudobulkTable({ source }: { source: TaskResultSource }) {
  const { t } = useTranslation('enrichment');
  const table = useTaskOutput(() => source.table('pseudobulk'), [source]);
  if (!table) return <Spin />;
  if (table instanceof Error)
    return <Alert type="error" showIcon title={t('loadFailed', { detail: table.message })} />;
  const data = table.rows.map((r, i) => ({
    key: String(i),
    ...Object.fromEntries(table.columns.map((c, k) => [c, r[k]])),
  }));
  return (
    <>
      <Typography.Title level={5}>{t('deg.pseudobulk')}</Typography.Title>
      <ExportButtons
        header={table.columns}
        fileName="pseudobulk"
        rows={() => table.rows.map((r) => r.map((v) => (typeof v === 'number' ? v : String(v ?? ''))))}
      />
      <Table
        size="small"
        dataSource={data}
        columns={table.columns.map((c) => ({ title: c, dataIndex: c, render: fmtNumber }))}
        pagination={{ pageSize: 10, showSizeChanger: false }}
        scroll={{ x: true }}
      />
    </>
  );
}

/** The task tab's result view (WEB_TASKS entry). */
export function DegGroupsTaskView(props: WebTaskViewProps) {
  return <DegGroupsView source={useTaskResultSource(props)} />;
}
