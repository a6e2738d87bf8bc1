import { Alert, Card, Col, Row, Select, Space, Spin, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { RegulonCellHeatmap, RegulonFeatures, RegulonsSummary } from '../contract';
import { useTaskHost, type TaskViewProps } from '../../_shared/web/host';
import { useJsonOutput } from '../../_shared/web/jsonOutput';
import { cellHeatmapOption, featureOption } from './charts';

/** Regulons shown in the per-cell heat map: the top 5 by RSS of every cell type, in that order. */
export function topRegulons(summary: RegulonsSummary): string[] {
  const out: string[] = [];
  for (const t of summary.topByType) for (const r of t.regulons) if (!out.includes(r.name)) out.push(r.name);
  return out;
}

/** Per-cell heat map of the top regulons (z-scored AUC of the sampled cells, rows by cell type). */
export function RegulonCellHeatmap({ source, summary }: { source: TaskViewProps; summary: RegulonsSummary }) {
  const { t } = useTranslation('tasks');
  const { Chart } = useTaskHost().components;
  const heat = useJsonOutput<RegulonCellHeatmap>(source, 'heatmap.json');
  const option = useMemo(
    () =>
      heat && !(heat instanceof Error)
        ? cellHeatmapOption(heat, topRegulons(summary), t('regulons.view.cellHeatmap.annotation'))
        : null,
    [heat, summary, t],
  );
  return (
    <Card size="small" title={t('regulons.view.cellHeatmap.title')}>
      {heat instanceof Error ? (
        <Alert type="error" showIcon message={t('regulons.view.loadFailed', { detail: heat.message })} />
      ) : option ? (
        <Chart option={option} height={560} fileName="regulons_cell_heatmap" testId="regulons-cell-heatmap" />
      ) : (
        <Spin />
      )}
    </Card>
  );
}

/** One feature plot with its caption (`<testId>-title`). */
function FeaturePlot(p: {
  features: RegulonFeatures;
  values: number[];
  caption: string;
  name: string;
  testId: string;
}) {
  const { Chart } = useTaskHost().components;
  return (
    <Col xs={24} lg={12}>
      <Typography.Text strong data-testid={`${p.testId}-title`}>
        {p.caption}
      </Typography.Text>
      <Chart option={featureOption(p.features, p.values)} height={380} fileName={p.name} testId={p.testId} />
    </Col>
  );
}

/** Feature plots: a regulon's TF expression next to its AUC on the embedding (docs/methods/regulons.md). */
export function RegulonFeaturePlots({ source }: { source: TaskViewProps }) {
  const { t } = useTranslation('tasks');
  const features = useJsonOutput<RegulonFeatures>(source, 'features.json');
  const [chosen, setChosen] = useState<string>();
  if (features instanceof Error)
    return (
      <Alert type="error" showIcon message={t('regulons.view.loadFailed', { detail: features.message })} />
    );
  if (!features) return <Spin />;
  const reg = features.regulons.find((r) => r.name === chosen) ?? features.regulons[0];
  return (
    <Card size="small" title={t('regulons.view.features.title')} data-testid="regulons-features">
      {!features.embedding || !reg ? (
        <Typography.Text type="secondary">{t('regulons.view.features.noEmbedding')}</Typography.Text>
      ) : (
        <Space orientation="vertical" style={{ width: '100%' }}>
          <Space>
            <Typography.Text>{t('regulons.view.features.regulon')}</Typography.Text>
            <span data-testid="regulons-feature-select">
              <Select
                style={{ minWidth: 180 }}
                value={reg.name}
                onChange={setChosen}
                options={features.regulons.map((r) => ({ value: r.name, label: r.name }))}
              />
            </span>
            <Typography.Text type="secondary">{features.embedding}</Typography.Text>
          </Space>
          <Row gutter={12}>
            {[
              {
                kind: 'expression',
                values: reg.expression,
                caption: t('regulons.view.features.expression', { tf: reg.tf }),
              },
              { kind: 'auc', values: reg.auc, caption: t('regulons.view.features.auc', { name: reg.name }) },
            ].map((p) => (
              <FeaturePlot
                key={p.kind}
                features={features}
                values={p.values}
                caption={p.caption}
                name={`regulons_${reg.tf}_${p.kind}`}
                testId={`regulons-feature-${p.kind}`}
              />
            ))}
          </Row>
        </Space>
      )}
    </Card>
  );
}
