import { Alert, Descriptions, Spin, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import type { CnvHeatmapLayout, CnvScoreViolins, CnvSummary } from '../contract';
import { ArmSummary } from './ArmSummary';
import { CnvHeatmap } from './CnvHeatmap';
import { GeneFrequency } from './GeneFrequency';
import { ScoreViolins } from './ScoreViolins';
import type { TaskViewProps } from '../../_shared/web/host';
import { outputValue, useBytesOutput, useJsonOutput } from '../../_shared/web/jsonOutput';
import { useTaskOutput } from '../../_shared/web/useTaskOutput';

/** Result of a `cnv` task: heat map, per-arm group summary, CNV score violins. */
export function CnvView(props: TaskViewProps) {
  const { t } = useTranslation('tasks');
  const summary = props.outputs.summary as CnvSummary;
  const layout = useJsonOutput<CnvHeatmapLayout>(props, 'heatmap');
  const bin = useBytesOutput(props, 'heatmap.bin');
  const heat =
    layout instanceof Error
      ? layout
      : bin instanceof Error
        ? bin
        : layout && bin
          ? ([layout, bin] as const)
          : null;
  const arms = outputValue(useTaskOutput(props, { table: 'arm_groups' }));
  const scores = useJsonOutput<CnvScoreViolins[]>(props, 'scores');
  const frequency = outputValue(useTaskOutput(props, { table: 'gene_frequency' }));
  return (
    <div data-testid="cnv-view">
      <Descriptions
        size="small"
        column={{ xs: 1, sm: 2, md: 4 }}
        items={[
          { key: 'genome', label: t('cnv.view.summary.genome'), children: summary.genome },
          {
            key: 'genes',
            label: t('cnv.view.summary.genes'),
            children: t('cnv.view.summary.genesValue', {
              used: summary.nGenesUsed,
              matched: summary.nGenesMatched,
              total: summary.nGenesDataset,
            }),
          },
          {
            key: 'cells',
            label: t('cnv.view.summary.cells'),
            children: t('cnv.view.summary.cellsValue', {
              observed: summary.nObserved,
              reference: summary.nReference,
            }),
          },
          { key: 'ref', label: t('cnv.view.summary.reference'), children: summary.referenceTypes.join(', ') },
        ]}
      />
      <Tabs
        items={[
          {
            key: 'heatmap',
            label: t('cnv.view.tabs.heatmap'),
            children:
              heat instanceof Error ? (
                <Alert type="error" showIcon title={t('cnv.view.loadFailed', { detail: heat.message })} />
              ) : heat ? (
                <CnvHeatmap layout={heat[0]} bytes={heat[1]} fileName="cnv-heatmap" />
              ) : (
                <Spin />
              ),
          },
          { key: 'arms', label: t('cnv.view.tabs.arms'), children: <ArmSummary table={arms} /> },
          { key: 'scores', label: t('cnv.view.tabs.scores'), children: <ScoreViolins data={scores} /> },
          {
            key: 'frequency',
            label: t('cnv.view.tabs.frequency'),
            children: <GeneFrequency table={frequency} />,
          },
        ]}
      />
    </div>
  );
}
