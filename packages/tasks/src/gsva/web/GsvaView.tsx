import { Alert, Space, Spin, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { FigureOption } from '../../_shared/figures/option';
import { ExportButtons } from '../../_shared/web/ExportButtons';
import { fmtNumber } from '../../_shared/web/format';
import { useTaskHost, type TaskViewProps } from '../../_shared/web/host';
import { useTaskOutput } from '../../_shared/web/useTaskOutput';
import type { GsvaSummary } from '../contract';

interface Heatmap {
  columns: string[];
  columnGroups: string[];
  rows: string[];
  ids: string[];
  values: number[][];
  raw: number[][];
}

/** GSVA result: heat map of the top sets by SD (row-scaled, as pheatmap scale = "row") and the score table. */
export function GsvaView(props: TaskViewProps) {
  const { t } = useTranslation('tasks');
  const EChart = useTaskHost().components.Chart;
  const summary = props.outputs.summary as GsvaSummary;
  const tableQ = useTaskOutput(props, { table: 'gsva' });
  const heatQ = useTaskOutput<{ json: string }, Heatmap>(props, { json: 'heatmap' });
  const table = tableQ.error ?? tableQ.data ?? null;
  const heat = heatQ.error ?? heatQ.data ?? null;
  if (table instanceof Error || heat instanceof Error) {
    return (
      <Alert
        type="error"
        showIcon
        title={t('gsva.view.loadFailed', {
          detail: (table instanceof Error ? table : (heat as Error)).message,
        })}
      />
    );
  }
  if (!table || !heat) return <Spin />;
  const rows = [...heat.rows].reverse();
  const data = heat.values.flatMap((vals, r) =>
    vals.map((v, c) => [c, heat.rows.length - 1 - r, v, heat.raw[r]![c]!]),
  );
  const perCell = summary.mode === 'cells';
  const option: FigureOption = {
    animation: false,
    tooltip: {
      formatter: (p: unknown) => {
        const v = (p as { value: number[] }).value;
        return `${rows[v[1]!]}<br/>${heat.columns[v[0]!]} (${heat.columnGroups[v[0]!]})<br/>GSVA ${v[3]!.toFixed(3)}`;
      },
    },
    grid: { left: 300, right: 90, top: 20, bottom: perCell ? 40 : 110 },
    xAxis: {
      type: 'category',
      data: perCell ? heat.columnGroups : heat.columns,
      axisLabel: { rotate: 60, show: !perCell },
    },
    yAxis: { type: 'category', data: rows.map((s) => (s.length > 44 ? `${s.slice(0, 43)}…` : s)) },
    visualMap: {
      min: -2,
      max: 2,
      dimension: 2,
      inRange: { color: ['#4575b4', '#ffffff', '#d73027'] },
      right: 0,
      top: 'middle',
      text: [t('gsva.view.rowZ'), ''],
      calculable: true,
    },
    series: [{ type: 'heatmap', data }],
  };
  return (
    <Space orientation="vertical" style={{ width: '100%' }} data-testid="gsva-view">
      <Typography.Text>
        {t('gsva.view.summary', {
          sets: summary.sets,
          columns: summary.columns,
          genes: summary.genes,
          mode: t(`gsva.view.mode.${summary.mode}`),
        })}
      </Typography.Text>
      <EChart
        testId="gsva-heatmap"
        option={option}
        fileName="gsva-heatmap"
        height={Math.max(300, 60 + 18 * rows.length)}
      />
      <ExportButtons
        testId="gsva-export"
        header={table.columns}
        fileName="gsva"
        rows={() => table.rows.map((r) => r.map((v) => (typeof v === 'number' ? v : String(v ?? ''))))}
      />
      <Table
        size="small"
        dataSource={table.rows.slice(0, 500).map((r, i) => ({
          key: String(i),
          ...Object.fromEntries(
            table.columns.slice(0, 4 + Math.min(20, table.columns.length - 4)).map((c, k) => [`c${k}`, r[k]]),
          ),
        }))}
        columns={table.columns
          .slice(0, 4 + Math.min(20, table.columns.length - 4))
          .map((c, k) => ({ title: c, dataIndex: `c${k}`, render: fmtNumber }))}
        pagination={{ pageSize: 10, showSizeChanger: false }}
        scroll={{ x: true }}
      />
    </Space>
  );
}
