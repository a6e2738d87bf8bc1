import { Alert, Spin } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useTaskHost } from '../../_shared/web/host';
import type { FigureOption } from '../../_shared/figures/option';
import type { TaskTableData } from '../../_shared/web/useTaskOutput';

/**
 * Per-gene CNV frequency along the genome (table gene_frequency, docs/methods/cnv.md): share of observed
 * cells with a gain (> 1.01, up) and with a loss (< 0.99, down), chromosome names on the axis.
 */
export function GeneFrequency({ table }: { table: TaskTableData | Error | null }) {
  const { Chart } = useTaskHost().components;
  const { t } = useTranslation('tasks');
  const data = useMemo(() => {
    if (!table || table instanceof Error) return null;
    const ci = (c: string) => table.columns.indexOf(c);
    const [iG, iC, iL, iGa] = [ci('gene'), ci('chromosome'), ci('loss_fraction'), ci('gain_fraction')];
    const genes: string[] = [];
    const gain: number[] = [];
    const loss: number[] = [];
    const bounds: { name: string; start: number; end: number }[] = [];
    table.rows.forEach((r, i) => {
      genes.push(String(r[iG]));
      gain.push(Number(r[iGa]));
      loss.push(-Number(r[iL]));
      const chr = String(r[iC]);
      const last = bounds[bounds.length - 1];
      if (last && last.name === chr) last.end = i;
      else bounds.push({ name: chr, start: i, end: i });
    });
    return { genes, gain, loss, bounds };
  }, [table]);
  if (table instanceof Error)
    return <Alert type="error" showIcon title={t('cnv.view.loadFailed', { detail: table.message })} />;
  if (!data) return <Spin />;
  const option: FigureOption = {
    animation: false,
    tooltip: { trigger: 'axis' },
    legend: { data: [t('cnv.view.frequency.gain'), t('cnv.view.frequency.loss')] },
    grid: { left: 60, right: 20, top: 40, bottom: 40 },
    xAxis: {
      type: 'category',
      data: data.genes,
      axisTick: { show: false },
      axisLabel: {
        interval: 0,
        formatter: (_: string, i: number) => {
          const b = data.bounds.find((x) => Math.floor((x.start + x.end) / 2) === i);
          return b ? b.name.replace(/^chr/, '') : '';
        },
      },
    },
    yAxis: { type: 'value', name: t('cnv.view.frequency.axis'), min: -1, max: 1 },
    series: [
      {
        type: 'bar',
        name: t('cnv.view.frequency.gain'),
        data: data.gain,
        barCategoryGap: 0,
        itemStyle: { color: '#b2182b' },
      },
      {
        type: 'bar',
        name: t('cnv.view.frequency.loss'),
        data: data.loss,
        barGap: '-100%',
        barCategoryGap: 0,
        itemStyle: { color: '#2166ac' },
      },
    ],
  };
  return (
    <div data-testid="cnv-frequency">
      <p style={{ color: '#666', fontSize: 12 }}>{t('cnv.view.frequency.caption')}</p>
      <Chart option={option} height={360} fileName="cnv-gene-frequency" testId="cnv-frequency-chart" />
    </div>
  );
}
