import { Alert, Card, Space, Spin, Table, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { RegulonsSummary } from '../contract';
import { ExportButtons } from '../../_shared/web/ExportButtons';
import { useTaskHost, type TaskViewProps } from '../../_shared/web/host';
import { useTaskOutput } from '../../_shared/web/useTaskOutput';
import { matrixHeatmap, scaleColumns, type Rows } from './charts';
import { RegulonCellHeatmap, RegulonFeaturePlots } from './RegulonPlots';

/**
 * TF regulation results (issue 18): regulon specificity (RSS) and scaled activity by cell type,
 * the per-cell heat map of the top regulons, TF expression next to regulon AUC on the embedding,
 * average TF expression by cell type, the CSI matrix ordered by module, and the top regulons per
 * cell type (CSV/XLSX). Per-cell AUC values are colourable in the explorer as `regulon TF(+)`.
 */
export function RegulonsView(props: TaskViewProps) {
  const { outputs } = props;
  const { t } = useTranslation('tasks');
  const { Chart } = useTaskHost().components;
  const summary = outputs.summary as RegulonsSummary;
  const rss = useTaskOutput(props, { table: 'rss', limit: 10_000 });
  const activity = useTaskOutput(props, { table: 'regulon_activity_scaled', limit: 10_000 });
  const csi = useTaskOutput(props, { table: 'csi_matrix', limit: 10_000 });
  const modules = useTaskOutput(props, { table: 'csi_modules', limit: 10_000 });
  const top = useTaskOutput(props, { table: 'top_regulons', limit: 10_000 });
  const tfExpr = useTaskOutput(props, { table: 'tf_expression_by_cell_type', limit: 10_000 });
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
  if (error)
    return <Alert type="error" showIcon message={t('regulons.view.loadFailed', { detail: String(error) })} />;
  const header = [
    t('regulons.view.col.cellType'),
    t('regulons.view.col.rank'),
    t('regulons.view.col.regulon'),
    t('regulons.view.col.rss'),
  ];
  return (
    <Space orientation="vertical" style={{ width: '100%' }} data-testid="regulons-view">
      <Typography.Text data-testid="regulons-summary">
        {t('regulons.view.summary', {
          regulons: summary.regulons.length,
          tfs: summary.tfs,
          targets: summary.targets,
          cells: summary.cellsSampled,
        })}
      </Typography.Text>
      <Card size="small" title={t('regulons.view.rss.title')}>
        {rss.data ? (
          <Chart
            option={matrixHeatmap(rss.data.columns, rss.data.rows as Rows, {})}
            height={Math.max(300, 150 + 22 * rss.data.rows.length)}
            fileName="regulons_rss"
            testId="regulons-rss"
          />
        ) : (
          <Spin />
        )}
      </Card>
      <Card size="small" title={t('regulons.view.activity.title')}>
        {activity.data ? (
          <Chart
            option={matrixHeatmap(activity.data.columns, activity.data.rows as Rows, { diverging: true })}
            height={Math.max(300, 150 + 22 * activity.data.rows.length)}
            fileName="regulons_activity"
            testId="regulons-activity"
          />
        ) : (
          <Spin />
        )}
      </Card>
      <RegulonCellHeatmap source={props} summary={summary} />
      <RegulonFeaturePlots source={props} />
      <Card size="small" title={t('regulons.view.tfExpression.title')}>
        {tfExpr.data ? (
          <Chart
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
      <Card size="small" title={t('regulons.view.csi.title')}>
        {csiColumns && csiRows && csiOrder ? (
          <Chart
            option={matrixHeatmap(csiColumns, csiRows as Rows, { order: csiOrder })}
            height={Math.max(320, 150 + 16 * csiRows.length)}
            fileName="regulons_csi"
            testId="regulons-csi"
          />
        ) : (
          <Spin />
        )}
      </Card>
      <Card size="small" title={t('regulons.view.top.title')}>
        {top.data ? (
          <Space orientation="vertical" style={{ width: '100%' }}>
            <ExportButtons
              header={header}
              rows={() =>
                top.data!.rows.map((r) =>
                  r.map((v) => (v === null ? '' : typeof v === 'boolean' ? String(v) : v)),
                )
              }
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
                render: (_: unknown, row: { r: (string | number | boolean | null)[] }) =>
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
