import { useMemo } from 'react';
import { Col, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import type { CellFilteringSample } from '@cellcloud/contracts/wizard';
import { EChart } from '../explore/charts/EChart';
import type { ChartOption } from '../explore/charts/echarts';

const METRICS = ['genes', 'umis', 'mito', 'ribo'] as const;
type Metric = (typeof METRICS)[number];

function boxStats(values: number[]): [number, number, number, number, number] {
  if (!values.length) return [0, 0, 0, 0, 0];
  const v = [...values].sort((a, b) => a - b);
  const q = (p: number) => {
    const i = (v.length - 1) * p;
    const lo = Math.floor(i);
    return v[lo]! + (v[Math.min(lo + 1, v.length - 1)]! - v[lo]!) * (i - lo);
  };
  return [v[0]!, q(0.25), q(0.5), q(0.75), v[v.length - 1]!];
}

/** Before/after-filtering box plots of genes, UMIs, mito % and ribo % per sample. */
export function QcDistributions({ samples, kept }: { samples: CellFilteringSample[]; kept: boolean[][] }) {
  const { t } = useTranslation('wizard');
  const options = useMemo(() => {
    const make = (m: Metric): ChartOption => ({
      title: { text: t(`qc.metrics.${m}`), left: 'center', textStyle: { fontSize: 13 } },
      tooltip: { trigger: 'item' },
      legend: { bottom: 0, data: [t('qc.before'), t('qc.after')] },
      grid: { left: 60, right: 16, top: 36, bottom: 48 },
      xAxis: { type: 'category', data: samples.map((s) => s.name) },
      yAxis: { type: 'value', scale: true },
      series: [
        { name: t('qc.before'), type: 'boxplot', data: samples.map((s) => boxStats(s[m])) },
        {
          name: t('qc.after'),
          type: 'boxplot',
          data: samples.map((s, i) => boxStats(s[m].filter((_, c) => kept[i]?.[c]))),
        },
      ],
    });
    return METRICS.map((m) => [m, make(m)] as const);
  }, [samples, kept, t]);
  return (
    <Row gutter={[16, 16]} data-testid="qc-distributions">
      {options.map(([m, option]) => (
        <Col key={m} xs={24} md={12}>
          <EChart option={option} height={280} fileName={`cell-filtering-${m}`} />
        </Col>
      ))}
    </Row>
  );
}
