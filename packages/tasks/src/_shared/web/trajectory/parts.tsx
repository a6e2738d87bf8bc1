import { Card, Select, Space, Table, Typography, message } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { FigureOption } from '../../figures/option';
import { useTaskHost } from '../host';
import type { TaskTableData } from '../useTaskOutput';

/**
 * Blocks both trajectory views draw (Monocle2View, Monocle3View): the trajectory card, a result
 * table, the re-run of the task with changed parameters and the height of a row heat map.
 */

type Prefix = 'monocle2' | 'monocle3';

/**
 * The trajectory card: the colour-by choice (and further `controls`), the trajectory chart (or
 * "loading"), then the re-order controls (`children`) and an optional `footer`.
 */
export function TrajectoryCard<C extends string>({
  prefix,
  title,
  colourLabel,
  colourBy,
  colours,
  colourName,
  onColourBy,
  controls,
  option,
  children,
  footer,
}: {
  prefix: Prefix;
  title: string;
  colourLabel: string;
  colourBy: C;
  colours: readonly C[];
  colourName: (c: C) => string;
  onColourBy: (c: C) => void;
  controls?: ReactNode;
  option: FigureOption | null;
  children: ReactNode;
  footer?: ReactNode;
}) {
  const { t } = useTranslation('tasks');
  const { Chart } = useTaskHost().components;
  return (
    <Card size="small" title={title}>
      <Space wrap style={{ marginBottom: 8 }}>
        <span>{colourLabel}</span>
        <Select<C>
          value={colourBy}
          onChange={onColourBy}
          style={{ width: 160 }}
          data-testid={`${prefix}-colour`}
          options={colours.map((v) => ({ value: v, label: colourName(v) }))}
        />
        {controls}
      </Space>
      {option ? (
        <Chart
          option={option}
          height={480}
          fileName={`${prefix}-trajectory`}
          testId={`${prefix}-trajectory`}
        />
      ) : (
        <Typography.Text type="secondary">{t('view.loading')}</Typography.Text>
      )}
      <Space wrap style={{ marginTop: 8 }}>
        {children}
      </Space>
      {footer}
    </Card>
  );
}

/** A task table page as a paged table (non-integer numbers to 4 significant digits). */
export function ResultTable({
  table,
  testId,
  maxColumns,
}: {
  table: TaskTableData;
  testId: string;
  maxColumns?: number;
}) {
  return (
    <Table
      size="small"
      rowKey={(_, i) => String(i)}
      data-testid={testId}
      dataSource={table.rows.map((r) => Object.fromEntries(table.columns.map((c, i) => [c, r[i]])))}
      columns={table.columns.slice(0, maxColumns).map((c) => ({
        title: c,
        dataIndex: c,
        key: c,
        render: (v: unknown) =>
          typeof v === 'number' && !Number.isInteger(v) ? v.toPrecision(4) : String(v ?? ''),
      }))}
      pagination={{ pageSize: 10 }}
    />
  );
}

/** Runs the task again with other parameters; `sent` is the message shown once it is queued. */
export function useRerun(
  datasetId: string,
  task: Prefix,
  sent: string,
): { run: (params: Record<string, unknown>) => void; pending: boolean } {
  const create = useTaskHost().useCreateTask(datasetId);
  return {
    pending: create.pending,
    run: (params) =>
      create.create(
        { task, params },
        {
          onSuccess: () => void message.success(sent),
          onError: (e) => void message.error(e.message),
        },
      ),
  };
}

/** Height of a row heat map: `base` + `perRow` px per row, at least `min`. */
export const heatmapHeight = (rows: number, min: number, base: number, perRow: number): number =>
  Math.max(min, base + perRow * rows);
