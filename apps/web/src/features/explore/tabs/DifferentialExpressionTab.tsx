import { Alert, Button, Input, Select, Space, Spin, Switch, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DegRow } from '@cellcloud/contracts/artifacts';
import { LIMITS } from '@cellcloud/contracts/constants';
import { levelLabelKey } from '../annotationLevels';
import { EChart } from '../charts/EChart';
import type { ChartOption } from '../charts/echarts';
import { filterDegRows, passesDegFilter } from '../stats/degFilter';
import { toCsv, toXlsx } from '../tableExport';
import { downloadBlob } from '../viewer/exportImage';
import type { TabProps } from './registry';
import { DEG_COLUMN_KEYS } from '../i18nKeys';

const COLS: Array<keyof DegRow> = ['cluster', 'gene', 'avgExpr', 'log2fc', 'pct1', 'zscore', 'pval', 'padj', 'pct2'];
const fmt = (v: number) => (Math.abs(v) >= 1e-3 || v === 0 ? v.toFixed(3) : v.toExponential(2));

/** Differential Expression: SPEC §3 DEG columns, SPEC §5 filter, sort/search, CSV/XLSX, volcano. */
export function DifferentialExpressionTab({ client, manifest }: TabProps) {
  const { t } = useTranslation('explore');
  const [groupBy, setGroupBy] = useState(manifest.markers[0]?.groupBy ?? '');
  const [rows, setRows] = useState<DegRow[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [specFilter, setSpecFilter] = useState(true);
  const [search, setSearch] = useState('');
  const [cluster, setCluster] = useState<string | null>(null);

  useEffect(() => {
    const file = manifest.markers.find((m) => m.groupBy === groupBy)?.file;
    if (!file) return undefined;
    let live = true;
    setRows(null);
    client.json<DegRow[]>(file).then(
      (r) => live && setRows(r),
      (e: unknown) => live && setError(e instanceof Error ? e.message : String(e)),
    );
    return () => {
      live = false;
    };
  }, [client, manifest, groupBy]);

  const clusters = useMemo(() => [...new Set((rows ?? []).map((r) => r.cluster))], [rows]);
  const shown = useMemo(() => filterDegRows(rows ?? [], { applySpecFilter: specFilter, search, cluster }), [rows, specFilter, search, cluster]);
  if (error) return <Alert type="error" showIcon title={t('viewer.loadFailed', { detail: error })} />;
  if (!rows) return <Spin />;

  const header = COLS.map((c) => t(DEG_COLUMN_KEYS[c]!));
  const asCells = () => shown.map((r) => COLS.map((c) => r[c]));
  const columns: ColumnsType<DegRow> = COLS.map((c) => ({
    title: t(DEG_COLUMN_KEYS[c]!),
    dataIndex: c,
    sorter: (a: DegRow, b: DegRow) => (typeof a[c] === 'number' ? (a[c] as number) - (b[c] as number) : String(a[c]).localeCompare(String(b[c]))),
    render: (v: string | number) => (typeof v === 'number' ? fmt(v) : v),
  }));
  const volcanoRows = rows.filter((r) => cluster === null || r.cluster === cluster).slice(0, 60_000);
  const point = (r: DegRow) => [r.log2fc, -Math.log10(Math.max(r.padj, 1e-300)), r.gene];
  const volcano: ChartOption = {
    animation: false,
    tooltip: { formatter: (p: unknown) => String((p as { value: unknown[] }).value[2]) },
    legend: { data: [t('deg.significant'), t('deg.notSignificant')] },
    grid: { left: 60, right: 20, top: 40, bottom: 50 },
    xAxis: { type: 'value', name: 'log2FC', nameLocation: 'middle', nameGap: 28 },
    yAxis: { type: 'value', name: '-log10(padj)' },
    series: [
      { type: 'scatter', name: t('deg.significant'), symbolSize: 5, itemStyle: { color: '#d62728' }, data: volcanoRows.filter((r) => passesDegFilter(r)).map(point) },
      { type: 'scatter', name: t('deg.notSignificant'), symbolSize: 3, itemStyle: { color: '#bbbbbb' }, data: volcanoRows.filter((r) => !passesDegFilter(r)).map(point) },
    ],
  };

  return (
    <Space orientation="vertical" style={{ width: '100%' }} data-testid="tab-differentialExpression">
      <Space wrap>
        <Select
          value={groupBy}
          style={{ width: 180 }}
          onChange={setGroupBy}
          options={manifest.markers.map((m) => ({ value: m.groupBy, label: levelLabelKey(m.groupBy) ? t(levelLabelKey(m.groupBy)!) : m.groupBy }))}
        />
        <Select allowClear placeholder={t('deg.allClusters')} value={cluster} style={{ width: 160 }} onChange={(v?: string) => setCluster(v ?? null)} options={clusters.map((c) => ({ value: c, label: c }))} />
        <Input.Search data-testid="deg-search" allowClear placeholder={t('deg.search')} style={{ width: 180 }} onSearch={setSearch} onChange={(e) => setSearch(e.target.value)} />
        <Space size={4}>
          <Switch data-testid="deg-filter" checked={specFilter} onChange={setSpecFilter} />
          {t('deg.filter', { log2fc: LIMITS.degFilter.log2fc, padj: LIMITS.degFilter.padj, pct: LIMITS.degFilter.pct })}
        </Space>
        <Button onClick={() => downloadBlob(new Blob([toCsv(header, asCells())], { type: 'text/csv' }), `deg-${groupBy}.csv`)}>{t('export.csv')}</Button>
        <Button
          onClick={() =>
            downloadBlob(new Blob([toXlsx('DEG', header, asCells()) as BlobPart], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }), `deg-${groupBy}.xlsx`)
          }
        >
          {t('export.xlsx')}
        </Button>
      </Space>
      <Typography.Text data-testid="deg-count" data-shown={shown.length} data-total={rows.length}>{t('deg.count', { shown: shown.length, total: rows.length })}</Typography.Text>
      <Table size="small" rowKey={(r) => `${r.cluster}|${r.gene}`} dataSource={shown} columns={columns} pagination={{ pageSize: 20, showSizeChanger: false }} scroll={{ x: true }} />
      <Typography.Title level={5}>{t('deg.volcano')}</Typography.Title>
      <EChart option={volcano} fileName={`volcano-${groupBy}`} height={380} />
    </Space>
  );
}
