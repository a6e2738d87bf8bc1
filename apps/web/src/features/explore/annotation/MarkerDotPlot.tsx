import { Empty } from 'antd';
import { useTranslation } from 'react-i18next';
import type { AnnotationArtifact } from '../../../api/annotation';
import { EChart } from '../charts/EChart';
import type { ChartOption } from '../charts/echarts';

/**
 * Marker evidence per label: dot plot of the reference's marker genes (grouped by the label they
 * mark) per cluster — dot size = fraction of cells expressing, colour = mean normalized expression.
 */
export function MarkerDotPlot({ data }: { data: AnnotationArtifact['dotplot'] }) {
  const { t } = useTranslation('annotation');
  if (!data || data.genes.length === 0) return <Empty description={t('dotplot.none')} />;
  const names = { cluster: t('dotplot.cluster'), mean: t('dotplot.mean'), fraction: t('dotplot.fraction') };
  const points: number[][] = [];
  let max = 0;
  data.clusters.forEach((_, k) =>
    data.genes.forEach((_, j) => {
      const mean = data.mean[k]![j]!;
      max = Math.max(max, mean);
      points.push([j, k, mean, data.fraction[k]![j]!]);
    }),
  );
  const option: ChartOption = {
    animation: false,
    tooltip: {
      formatter: (p: unknown) => {
        const v = (p as { value: number[] }).value;
        const gene = data.genes[v[0]!]!;
        return `${gene} (${data.labelOfGene[gene] ?? ''})<br/>${names.cluster} ${data.clusters[v[1]!]}<br/>${names.mean} ${v[2]}<br/>${names.fraction} ${(v[3]! * 100).toFixed(0)}%`;
      },
    },
    grid: { left: 60, right: 90, top: 10, bottom: 110 },
    xAxis: { type: 'category', data: data.genes.map((g) => `${g}`), axisLabel: { rotate: 60, fontSize: 10 } },
    yAxis: { type: 'category', data: data.clusters, name: names.cluster },
    visualMap: {
      min: 0,
      max: max || 1,
      dimension: 2,
      orient: 'vertical',
      right: 0,
      top: 'middle',
      calculable: true,
      inRange: { color: ['#d9d9d9', '#b2182b'] },
    },
    series: [{ type: 'scatter', data: points, symbolSize: (v: number[]) => 4 + 18 * Math.sqrt(v[3]!) }],
  };
  return (
    <div data-testid="annotation-dotplot">
      <EChart
        option={option}
        fileName="annotation-markers"
        height={Math.max(260, 40 + 22 * data.clusters.length + 110)}
      />
    </div>
  );
}
