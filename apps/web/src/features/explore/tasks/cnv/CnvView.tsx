import { Alert, Descriptions, Spin, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import type { CnvHeatmapLayout, CnvScoreViolins, CnvSummary } from '@cellcloud/contracts/tasks/cnv';
import { ArmSummary } from './ArmSummary';
import { CnvHeatmap } from './CnvHeatmap';
import { GeneFrequency } from './GeneFrequency';
import { ScoreViolins } from './ScoreViolins';
import { useOutput, type CnvOutputSource } from './source';

/** Result of a `cnv` task: heat map, per-arm group summary, CNV score violins. */
export function CnvView({ source }: { source: CnvOutputSource }) {
  const { t } = useTranslation('cnv');
  const summary = source.summary as CnvSummary;
  const heat = useOutput(
    () => Promise.all([source.data<CnvHeatmapLayout>('heatmap'), source.bytes('heatmap.bin')]),
    [source],
  );
  const arms = useOutput(() => source.table('arm_groups'), [source]);
  const scores = useOutput(() => source.data<CnvScoreViolins[]>('scores'), [source]);
  const frequency = useOutput(() => source.table('gene_frequency'), [source]);
  return (
    <div data-testid="cnv-view">
      <Descriptions
        size="small"
        column={{ xs: 1, sm: 2, md: 4 }}
        items={[
          { key: 'genome', label: t('summary.genome'), children: summary.genome },
          {
            key: 'genes',
            label: t('summary.genes'),
            children: t('summary.genesValue', {
              used: summary.nGenesUsed,
              matched: summary.nGenesMatched,
              total: summary.nGenesDataset,
            }),
          },
          {
            key: 'cells',
            label: t('summary.cells'),
            children: t('summary.cellsValue', { observed: summary.nObserved, reference: summary.nReference }),
          },
          { key: 'ref', label: t('summary.reference'), children: summary.referenceTypes.join(', ') },
        ]}
      />
      <Tabs
        items={[
          {
            key: 'heatmap',
            label: t('tabs.heatmap'),
            children:
              heat instanceof Error ? (
                <Alert type="error" showIcon title={t('loadFailed', { detail: heat.message })} />
              ) : heat ? (
                <CnvHeatmap layout={heat[0]} bytes={heat[1]} fileName="cnv-heatmap" />
              ) : (
                <Spin />
              ),
          },
          { key: 'arms', label: t('tabs.arms'), children: <ArmSummary table={arms} /> },
          { key: 'scores', label: t('tabs.scores'), children: <ScoreViolins data={scores} /> },
          { key: 'frequency', label: t('tabs.frequency'), children: <GeneFrequency table={frequency} /> },
        ]}
      />
    </div>
  );
}
