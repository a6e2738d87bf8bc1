import { Alert, Input, Segmented, Space, Spin, Switch, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LIMITS } from '@cellcloud/contracts/constants';
import { DEG_GROUP_COLUMNS, passesDegDisplayFilter } from '@cellcloud/contracts/tasks/enrichment-common';
import { volcanoOption } from '../../_shared/figures/volcano';
import { ExportButtons } from '../../_shared/web/ExportButtons';
import { fmtNumber } from '../../_shared/web/format';
import { useTaskHost, type TaskViewProps } from '../../_shared/web/host';
import { useTaskOutput } from '../../_shared/web/useTaskOutput';
import type { DegGroupsSummary } from '../contract';
import { volcanoLabels } from '../figures';

type Col = (typeof DEG_GROUP_COLUMNS)[number];
type Row = Record<Col, string | number> & { key: string };

/**
 * Step 1 result: per direction (group 1 up / group 2 up) the DEG table with the display filter
 * (docs/product/validation.md), gene search and CSV/XLSX export of the shown rows, and the
 * volcano plot (the exported figure's option).
 */
export function DegGroupsView(props: TaskViewProps) {
  const { t } = useTranslation('enrichment');
  const { t: tt } = useTranslation('tasks');
  const { Chart } = useTaskHost().components;
  const summary = props.outputs.summary as DegGroupsSummary;
  const [dir, setDir] = useState<'group1' | 'group2'>('group1');
  const [filter, setFilter] = useState(true);
  const [search, setSearch] = useState('');
  const output = useTaskOutput(props, { table: dir });
  const table = output.data;
  const rows = useMemo<Row[]>(() => {
    if (!table) return [];
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
            passesDegDisplayFilter({ log2fc: +r.log2fc, padj: +r.padj, pct1: +r.pct1, pct2: +r.pct2 })) &&
          (!q || String(r.gene).toUpperCase().includes(q)),
      ),
    [rows, filter, q],
  );
  if (output.error)
    return <Alert type="error" showIcon title={t('loadFailed', { detail: output.error.message })} />;
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
  const volcano = volcanoOption(
    rows.map((r) => ({ log2fc: +r.log2fc, padj: +r.padj })),
    volcanoLabels((key, p) => tt(`degGroups.${key}`, p)),
  );
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
      {!table ? (
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
          <Chart option={volcano} fileName={`volcano-${dir}`} height={380} testId="deg-groups-volcano" />
        </>
      )}
      {summary.pseudobulk && <PseudobulkTable {...props} />}
    </Space>
  );
}

function PseudobulkTable(props: TaskViewProps) {
  const { t } = useTranslation('enrichment');
  const output = useTaskOutput(props, { table: 'pseudobulk' });
  const table = output.data;
  if (output.error)
    return <Alert type="error" showIcon title={t('loadFailed', { detail: output.error.message })} />;
  if (!table) return <Spin />;
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
