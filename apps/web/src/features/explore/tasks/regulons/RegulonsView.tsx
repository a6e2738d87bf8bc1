import { Alert, Card, Space, Spin, Table, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { RegulonsSummary } from '@cellcloud/contracts/tasks/regulons';
import { useTaskTable } from '../../../../api/tasks';
import { EChart } from '../../charts/EChart';
import { ExportButtons } from '@cellcloud/tasks/web';
import type { WebTaskViewProps } from '../types';
import { matrixHeatmap, scaleColumns, type Rows } from './charts';
import { RegulonCellHeatmap, RegulonFeaturePlots } from './RegulonPlots';

/**
 * TF regulation results (issue 18): regulon specificity (RSS) and scaled activity by cell type,
 * the per-cell heat map of the top regulons, TF expression next to regulon AUC on the embedding,
 * average TF expression by cell type, the CSI matrix ordered by module, and the top regulons per
 * cell type (CSV/XLSX). Per-cell AUC values are colourable in the explorer as `regulon TF(+)`.
 */
export function RegulonsView({ datasetId, task, outputs }: WebTaskViewProps) {
  const { t } = useTranslation('regulons');
  const summary = outputs.summary as RegulonsSummary;
  const rss = useTaskTable(datasetId, task.id, 'rss');
  const activity = useTaskTable(datasetId, task.id, 'regulon_activity_scaled');
  const csi = useTaskTable(datasetId, task.id, 'csi_matrix');
  const modules = useTaskTable(datasetId, task.id, 'csi_modules');
  const top = useTaskTable(datasetId, task.id, 'top_regulons');
  const tfExpr = useTaskTable(datasetId, task.id, 'tf_expression_by_cell_type');
  const csiOrder = useMemo(() => {
    if (!csi.data || !modules.data) return undefined;
    const moduleOf = new Map(modules.data.rows.map((r) => [String(r[1]), Number(r[0])]));
    return csi.data.rows
      .map((_, i) => i)
      .sort(
        (a, b) =>
          (moduleOf.get(String(csi.data!.rows[a]![0])) ?? 0) -
            (moduleOf.get(String(csi.data!.rows[b]![0])) ?? 0) || a - b,
      );
  }, [csi.data, modules.data]);
  const csiColumns = useMemo(
    () => (csi.data && csiOrder ? ['regulon', ...csiOrder.map((i) => String(csi.data!.rows[i]![0]))] : null),
    [csi.data, csiOrder],
  );
  const csiRows = useMemo(
    () =>
      csi.data && csiOrder ? csi.data.rows.map((r) => [r[0]!, ...csiOrder.map((i) => r[i + 1]!)]) : null,
    [csi.data, csiOrder],
  );
  const error = [rss, activity, csi, modules, top, tfExpr].find((q) => q.error)?.error;
  if (error) return <Alert type="error" showIcon message={t('loadFailed', { detail: String(error) })} />;
  const header = [t('col.cellType'), t('col.rank'), t('col.regulon'), t('col.rss')];
  return (
    <Space orientation="vertical" style={{ width: '100%' }} data-testid="regulons-view">
      <Typography.Text data-testid="regulons-summary">
        {t('summary', {
          regulons: summary.regulons.length,
          tfs: summary.tfs,
          targets: summary.targets,
          cells: summary.cellsSampled,
        })}
      </Typography.Text>
      <Card size="small" title={t('rss.title')}>
        {rss.data ? (
          <EChart
            option={matrixHeatmap(rss.data.columns, rss.data.rows as Rows, {})}
            height={Math.max(300, 150 + 22 * rss.data.rows.length)}
            fileName="regulons_rss"
            testId="regulons-rss"
          />
        ) : (
          <Spin />
        )}
      </Card>
      <Card size="small" title={t('activity.title')}>
        {activity.data ? (
          <EChart
            option={matrixHeatmap(activity.data.columns, activity.data.rows as Rows, { diverging: true })}
            height={Math.max(300, 150 + 22 * activity.data.rows.length)}
            fileName="regulons_activity"
            testId="regulons-activity"
          />
        ) : (
          <Spin />
        )}
      </Card>
      <RegulonCellHeatmap datasetId={datasetId} taskId={task.id} summary={summary} />
      <RegulonFeaturePlots datasetId={datasetId} taskId={task.id} />
      <Card size="small" title={t('tfExpression.title')}>
        {tfExpr.data ? (
          <EChart
            option={matrixHeatmap(tfExpr.data.columns, scaleColumns(tfExpr.data.rows as Rows), {
              diverging: true,
            })}
            height={Math.max(300, 150 + 22 * tfExpr.data.rows.length)}
            fileName="regulons_tf_expression"
            testId="regulons-tf-expression"
          />
        ) : (
          <Spin />
        )}
      </Card>
      <Card size="small" title={t('csi.title')}>
        {csiColumns && csiRows && csiOrder ? (
          <EChart
            option={matrixHeatmap(csiColumns, csiRows as Rows, { order: csiOrder })}
            height={Math.max(320, 150 + 16 * csiRows.length)}
            fileName="regulons_csi"
            testId="regulons-csi"
          />
        ) : (
          <Spin />
        )}
      </Card>
      <Card size="small" title={t('top.title')}>
        {top.data ? (
          <Space orientation="vertical" style={{ width: '100%' }}>
            <ExportButtons
              header={header}
              rows={() => top.data!.rows.map((r) => r.map((v) => (v === null ? '' : v)))}
              fileName="regulons_top"
              testId="regulons-top-export"
            />
            <Table
              data-testid="regulons-top"
              size="small"
              rowKey={(_, i) => String(i)}
              dataSource={top.data.rows.map((r) => ({ r }))}
              pagination={{ pageSize: 20, showSizeChanger: false }}
              columns={header.map((title, k) => ({
                title,
                key: String(k),
                render: (_: unknown, row: { r: (string | number | null)[] }) =>
                  typeof row.r[k] === 'number' && k === 3 ? (row.r[k] as number).toFixed(3) : row.r[k],
              }))}
            />
          </Space>
        ) : (
          <Spin />
        )}
      </Card>
    </Space>
  );
}
