import { Alert, Segmented, Spin } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useTaskHost } from '../../_shared/web/host';
import type { FigureOption } from '../../_shared/figures/option';
import type { TaskTableData } from '../../_shared/web/useTaskOutput';
import { lowestObservedArms } from '../figures';

/** Mean CNV value per group × chromosome arm (table arm_groups), by cell type or subclone. */
export function ArmSummary({ table }: { table: TaskTableData | Error | null }) {
  const { Chart } = useTaskHost().components;
  const { t } = useTranslation('tasks');
  const [kind, setKind] = useState<'type' | 'subclone'>('type');
  const data = useMemo(() => {
    if (!table || table instanceof Error) return null;
    const ci = (c: string) => table.columns.indexOf(c);
    const [iG, iK, iA, iM] = [ci('group'), ci('kind'), ci('arm'), ci('mean')];
    const groups: string[] = [];
    const arms: string[] = [];
    const cells: [number, number, number][] = [];
    let dev = 0.01;
    for (const r of table.rows) {
      if (r[iK] !== kind) continue;
      const g = String(r[iG]);
      const a = String(r[iA]);
      if (!groups.includes(g)) groups.push(g);
      if (!arms.includes(a)) arms.push(a);
      const v = Number(r[iM]);
      dev = Math.max(dev, Math.abs(v - 1));
      cells.push([arms.indexOf(a), groups.indexOf(g), +v.toFixed(4)]);
    }
    return { groups, arms, cells, dev, lowest: lowestObservedArms(table) };
  }, [table, kind]);
  if (table instanceof Error)
    return <Alert type="error" showIcon title={t('cnv.view.loadFailed', { detail: table.message })} />;
  if (!data) return <Spin />;
  const option: FigureOption = {
    animation: false,
    tooltip: {
      position: 'top',
      formatter: (p: unknown) => {
        const v = (p as { value: [number, number, number] }).value;
        return `${data.groups[v[1]]} · ${data.arms[v[0]]}: ${v[2]}`;
      },
    },
    grid: { left: 180, right: 90, top: 10, bottom: 60 },
    xAxis: {
      type: 'category',
      data: data.arms,
      axisLabel: { rotate: 90, interval: 0, fontSize: 10 },
      splitArea: { show: true },
    },
    yAxis: { type: 'category', data: data.groups, inverse: true, axisLabel: { interval: 0 } },
    visualMap: {
      min: 1 - data.dev,
      max: 1 + data.dev,
      calculable: true,
      orient: 'vertical',
      right: 0,
      top: 'center',
      inRange: { color: ['#053061', '#4393c3', '#f7f7f7', '#d6604d', '#67001f'] },
    },
    series: [
      {
        type: 'heatmap',
        data: data.cells,
        label: {
          show: data.groups.length * data.arms.length <= 400,
          fontSize: 8,
          formatter: (p: unknown) => (p as { value: number[] }).value[2]!.toFixed(2),
        },
      },
    ],
  };
  return (
    <div data-testid="cnv-arms">
      <Segmented
        value={kind}
        onChange={(v) => setKind(v as 'type' | 'subclone')}
        options={[
          { value: 'type', label: t('cnv.view.heatmap.byType') },
          { value: 'subclone', label: t('cnv.view.heatmap.bySubclone') },
        ]}
      />
      <p style={{ color: '#666', fontSize: 12 }}>{t('cnv.view.arms.caption')}</p>
      {data.lowest.length > 0 && (
        <p data-testid="cnv-lowest-arms">
          {t('cnv.view.arms.lowest', {
            arms: data.lowest.map((a) => `${a.arm} (${a.mean.toFixed(3)})`).join(', '),
          })}
        </p>
      )}
      <Chart
        option={option}
        height={Math.max(240, 40 + data.groups.length * 28 + 60)}
        fileName="cnv-arm-summary"
        testId="cnv-arms-chart"
      />
    </div>
  );
}
