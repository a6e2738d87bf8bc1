import { Alert, Button, Input, Select, Space, Spin, Switch, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DegRow } from '@cellcloud/contracts/artifacts';
import type { DegTaskView } from '@cellcloud/contracts/explore-deg';
import { LIMITS } from '@cellcloud/contracts/constants';
import { levelLabelKey } from '../annotationLevels';
import { EChart } from '../charts/EChart';
import type { ChartOption } from '../charts/echarts';
import { filterDegRows, passesDegFilter } from '../stats/degFilter';
import { toCsv, toXlsx } from '@cellcloud/formats/table-export';
import { downloadBlob } from '../viewer/exportImage';
import type { TabProps } from './registry';
import { DEG_COLUMN_KEYS } from '../i18nKeys';
import { fetchDegResult, useDegTasks } from '../../../api/exploreJobs';
import { useSubsets } from '../../../api/explore';
import { DegJobsBar } from './DegJobsBar';
import { degGroupings } from './degGroupings';

const COLS: Array<keyof DegRow> = [
  'cluster',
  'gene',
  'avgExpr',
  'log2fc',
  'pct1',
  'zscore',
  'pval',
  'padj',
  'pct2',
];
const fmt = (v: number) => (Math.abs(v) >= 1e-3 || v === 0 ? v.toFixed(3) : v.toExponential(2));

/**
 * Differential Expression: docs/product/entities.md#deg-table DEG columns, docs/product/validation.md#deg-display-filter filter, sort/search, CSV/XLSX, volcano;
 * the table shows the pipeline's markers (`m:<groupBy>`) or a completed calculation (`t:<taskId>`).
 */
export function DifferentialExpressionTab(props: TabProps) {
  return props.datasetId ? <WithJobs {...props} datasetId={props.datasetId} /> : <DegTable {...props} />;
}

function WithJobs(props: TabProps & { datasetId: string }) {
  const { t } = useTranslation('explore');
  const tasks = useDegTasks(props.datasetId);
  const subsets = useSubsets(props.datasetId);
  const groupings = useMemo(
    () => degGroupings(props.manifest, props.subsets, t),
    [props.manifest, props.subsets, t],
  );
  const refresh = () => {
    void tasks.refetch();
    void subsets.refetch();
  };
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <DegJobsBar
        datasetId={props.datasetId}
        groupings={groupings}
        selection={props.selection}
        tasks={tasks.data ?? []}
        onRefresh={refresh}
      />
      <DegTable
        {...props}
        tasks={tasks.data ?? []}
        groupingName={(g) => groupings.find((x) => x.value === g)?.label ?? g}
      />
    </Space>
  );
}

function DegTable({
  client,
  manifest,
  datasetId,
  tasks = [],
  groupingName = (g) => g,
}: TabProps & { tasks?: DegTaskView[]; groupingName?: (g: string) => string }) {
  const { t } = useTranslation('explore');
  const [source, setSource] = useState(`m:${manifest.markers[0]?.groupBy ?? ''}`);
  const groupBy = source.slice(2);
  const [rows, setRows] = useState<DegRow[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [specFilter, setSpecFilter] = useState(true);
  const [search, setSearch] = useState('');
  const [cluster, setCluster] = useState<string | null>(null);

  useEffect(() => {
    const file = manifest.markers.find((m) => m.groupBy === groupBy)?.file;
    const load =
      source.startsWith('t:') && datasetId
        ? fetchDegResult(datasetId, groupBy)
        : file
          ? client.json<DegRow[]>(file)
          : null;
    if (!load) return undefined;
    let live = true;
    setRows(null);
    setCluster(null);
    load.then(
      (r) => live && setRows(r),
      (e: unknown) => live && setError(e instanceof Error ? e.message : String(e)),
    );
    return () => {
      live = false;
    };
  }, [client, manifest, groupBy, source, datasetId]);

  const clusters = useMemo(() => [...new Set((rows ?? []).map((r) => r.cluster))], [rows]);
  const shown = useMemo(
    () => filterDegRows(rows ?? [], { applySpecFilter: specFilter, search, cluster }),
    [rows, specFilter, search, cluster],
  );
  // one option object per rows / cluster / language: the chart repaints up to 60,000 points only
  // when they change, not on every render of the tab (a job-status refetch re-renders it); the
  // chart draws them in ECharts' large mode (charts/EChart.tsx)
  const volcano = useMemo((): ChartOption | null => {
    if (!rows) return null;
    const volcanoRows = rows.filter((r) => cluster === null || r.cluster === cluster).slice(0, 60_000);
    const point = (r: DegRow) => [r.log2fc, -Math.log10(Math.max(r.padj, 1e-300)), r.gene];
    return {
      animation: false,
      tooltip: { formatter: (p: unknown) => String((p as { value: unknown[] }).value[2]) },
      legend: { data: [t('deg.significant'), t('deg.notSignificant')] },
      grid: { left: 60, right: 20, top: 40, bottom: 50 },
      xAxis: { type: 'value', name: 'log2FC', nameLocation: 'middle', nameGap: 28 },
      yAxis: { type: 'value', name: '-log10(padj)' },
      series: [
        {
          type: 'scatter',
          name: t('deg.significant'),
          symbolSize: 5,
          itemStyle: { color: '#d62728' },
          data: volcanoRows.filter((r) => passesDegFilter(r)).map(point),
        },
        {
          type: 'scatter',
          name: t('deg.notSignificant'),
          symbolSize: 3,
          itemStyle: { color: '#bbbbbb' },
          data: volcanoRows.filter((r) => !passesDegFilter(r)).map(point),
        },
      ],
    };
  }, [rows, cluster, t]);
  if (error) return <Alert type="error" showIcon title={t('viewer.loadFailed', { detail: error })} />;
  if (!rows || !volcano) return <Spin />;

  const header = COLS.map((c) => t(DEG_COLUMN_KEYS[c]!));
  const asCells = () => shown.map((r) => COLS.map((c) => r[c]));
  const columns: ColumnsType<DegRow> = COLS.map((c) => ({
    title: t(DEG_COLUMN_KEYS[c]!),
    dataIndex: c,
    sorter: (a: DegRow, b: DegRow) =>
      typeof a[c] === 'number'
        ? (a[c] as number) - (b[c] as number)
        : String(a[c]).localeCompare(String(b[c])),
    render: (v: string | number) => (typeof v === 'number' ? fmt(v) : v),
  }));
  return (
    <Space orientation="vertical" style={{ width: '100%' }} data-testid="tab-differentialExpression">
      <Space wrap>
        <Select
          data-testid="deg-source"
          value={source}
          style={{ width: 240 }}
          onChange={setSource}
          options={[
            ...manifest.markers.map((m) => ({
              value: `m:${m.groupBy}`,
              label: levelLabelKey(m.groupBy) ? t(levelLabelKey(m.groupBy)!) : m.groupBy,
            })),
            ...tasks
              .filter((x) => x.status === 'completed')
              .map((x) => ({
                value: `t:${x.id}`,
                label:
                  x.mode === 'compare'
                    ? t('deg.jobs.versus', { a: x.groupA, b: x.groupB })
                    : t('deg.jobs.clusterGenesOf', { name: groupingName(x.grouping ?? '') }),
              })),
          ]}
        />
        <Select
          allowClear
          placeholder={t('deg.allClusters')}
          value={cluster}
          style={{ width: 160 }}
          onChange={(v?: string) => setCluster(v ?? null)}
          options={clusters.map((c) => ({ value: c, label: c }))}
        />
        <Input.Search
          data-testid="deg-search"
          allowClear
          placeholder={t('deg.search')}
          style={{ width: 180 }}
          onSearch={setSearch}
          onChange={(e) => setSearch(e.target.value)}
        />
        <Space size={4}>
          <Switch data-testid="deg-filter" checked={specFilter} onChange={setSpecFilter} />
          {t('deg.filter', {
            log2fc: LIMITS.degFilter.log2fc,
            padj: LIMITS.degFilter.padj,
            pct: LIMITS.degFilter.pct,
          })}
        </Space>
        <Button
          onClick={() =>
            downloadBlob(new Blob([toCsv(header, asCells())], { type: 'text/csv' }), `deg-${groupBy}.csv`)
          }
        >
          {t('export.csv')}
        </Button>
        <Button
          onClick={() =>
            downloadBlob(
              new Blob([toXlsx('DEG', header, asCells()) as BlobPart], {
                type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
              }),
              `deg-${groupBy}.xlsx`,
            )
          }
        >
          {t('export.xlsx')}
        </Button>
      </Space>
      <Typography.Text data-testid="deg-count" data-shown={shown.length} data-total={rows.length}>
        {t('deg.count', { shown: shown.length, total: rows.length })}
      </Typography.Text>
      <Table
        size="small"
        rowKey={(r) => `${r.cluster}|${r.gene}`}
        dataSource={shown}
        columns={columns}
        pagination={{ pageSize: 20, showSizeChanger: false }}
        scroll={{ x: true }}
      />
      <Typography.Title level={5}>{t('deg.volcano')}</Typography.Title>
      <EChart option={volcano} fileName={`volcano-${groupBy}`} height={380} />
    </Space>
  );
}
