import { Alert, Empty, Space, Spin, Table, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { EChart } from '../charts/EChart';
import type { ChartOption } from '../charts/echarts';
import { ViolinChart } from '../charts/ViolinChart';
import { sampleColumn } from '../annotationLevels';
import { findQcColumns, parseQcSummary, type QcSummary } from './qcSummary';
import type { TabProps } from './registry';
import { QC_METRIC_KEYS } from '../i18nKeys';

interface Loaded {
  groups: string[];
  codes: ArrayLike<number>;
  metrics: Array<{ id: string; key: string; values: ArrayLike<number> }>;
  qc: QcSummary | null;
}

/** Cell Quality: genes, UMIs, mito %, ribo % per sample; before/after filtering; thresholds; doublets; ambient RNA. */
export function CellQualityTab({ client, manifest }: TabProps) {
  const { t } = useTranslation('explore');
  const [data, setData] = useState<Loaded | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    (async () => {
      const sampleCol = sampleColumn(manifest);
      const sample = sampleCol ? await client.obs(sampleCol.key) : null;
      const groups = sample?.kind === 'categorical' ? sample.labels : [t('quality.allCells')];
      const codes = sample?.kind === 'categorical' ? sample.codes : new Uint32Array(manifest.nCells);
      const cols = findQcColumns(manifest.obs.filter((o) => o.kind === 'numeric').map((o) => o.key));
      const metrics = (
        await Promise.all(
          cols.map(async (c) => {
            const col = await client.obs(c.key);
            return col.kind === 'numeric' ? [{ ...c, values: col.values }] : [];
          }),
        )
      ).flat();
      const qc = manifest.qc ? parseQcSummary(await client.json(manifest.qc)) : null;
      return { groups, codes, metrics, qc };
    })().then(
      (d) => live && setData(d),
      (e: unknown) => live && setError(e instanceof Error ? e.message : String(e)),
    );
    return () => {
      live = false;
    };
  }, [client, manifest, t]);

  if (error) return <Alert type="error" showIcon title={t('viewer.loadFailed', { detail: error })} />;
  if (!data) return <Spin />;
  const beforeAfter: ChartOption | null = data.qc?.samples.length
    ? {
        animation: false,
        tooltip: { trigger: 'axis' },
        legend: { data: [t('quality.before'), t('quality.after')] },
        grid: { left: 60, right: 20, top: 40, bottom: 60 },
        xAxis: { type: 'category', data: data.qc.samples.map((s) => s.sample) },
        yAxis: { type: 'value', name: t('quality.cells') },
        series: [
          { type: 'bar', name: t('quality.before'), data: data.qc.samples.map((s) => s.cellsBefore) },
          { type: 'bar', name: t('quality.after'), data: data.qc.samples.map((s) => s.cellsAfter) },
        ],
      }
    : null;

  return (
    <Space orientation="vertical" style={{ width: '100%' }} data-testid="tab-cellQuality">
      {data.metrics.length === 0 && <Empty description={t('quality.noMetrics')} />}
      <div
        style={{
          display: 'grid',
          gridTemplateColumns: 'repeat(auto-fill, minmax(min(420px, 100%), 1fr))',
          gap: 12,
        }}
      >
        {data.metrics.map((m) => (
          <div key={m.id}>
            <Typography.Title level={5}>{t(QC_METRIC_KEYS[m.id]!)}</Typography.Title>
            <ViolinChart
              groups={data.groups}
              values={m.values}
              codes={data.codes}
              yName={m.key}
              fileName={`qc-${m.id}`}
            />
          </div>
        ))}
      </div>
      {beforeAfter && (
        <>
          <Typography.Title level={5}>{t('quality.beforeAfter')}</Typography.Title>
          <EChart option={beforeAfter} fileName="qc-before-after" height={300} />
          <Table
            size="small"
            scroll={{ x: 'max-content' }}
            rowKey="sample"
            pagination={false}
            dataSource={data.qc!.samples}
            columns={[
              { title: t('quality.sample'), dataIndex: 'sample' },
              { title: t('quality.before'), dataIndex: 'cellsBefore' },
              { title: t('quality.after'), dataIndex: 'cellsAfter' },
              {
                title: t('quality.thresholds'),
                render: (_: unknown, r: QcSummary['samples'][number]) =>
                  Object.entries(r.thresholds)
                    .map(([k, v]) => `${qcKey(t, k)}: ${Number.isInteger(v) ? v : v.toFixed(2)}`)
                    .join(' · '),
              },
              {
                title: t('quality.failed'),
                render: (_: unknown, r: QcSummary['samples'][number]) =>
                  Object.entries(r.failed)
                    .map(([k, v]) => `${qcKey(t, k)}: ${v}`)
                    .join(' · '),
              },
            ]}
          />
        </>
      )}
      <Typography.Title level={5}>{t('quality.doublets')}</Typography.Title>
      {data.qc?.doublets.length ? (
        <RowsTable rows={data.qc.doublets} />
      ) : (
        <Typography.Text type="secondary">{t('quality.notRun')}</Typography.Text>
      )}
      <Typography.Title level={5}>{t('quality.ambient')}</Typography.Title>
      {data.qc?.ambient.length ? (
        <RowsTable rows={data.qc.ambient} />
      ) : (
        <Typography.Text type="secondary">{t('quality.notRun')}</Typography.Text>
      )}
    </Space>
  );
}

/** Generic result rows (one per sample) with the columns the engine wrote. */
function RowsTable({ rows }: { rows: Array<Record<string, unknown>> }) {
  const { t } = useTranslation('explore');
  const keys = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  // engine keys and coded values (booleans, skip reasons) are translated; sample names are data
  const show = (v: unknown) =>
    typeof v === 'number'
      ? Number.isInteger(v)
        ? String(v)
        : v.toPrecision(3)
      : v === null || v === undefined
        ? ''
        : typeof v === 'object'
          ? JSON.stringify(v)
          : t(`quality.value.${String(v).replace(/-/g, '_')}`, { defaultValue: String(v) });
  return (
    <Table
      size="small"
      scroll={{ x: 'max-content' }}
      pagination={false}
      rowKey={(_, i) => String(i)}
      dataSource={rows}
      columns={keys.map((k) => ({
        title: qcKey(t, k),
        dataIndex: k,
        render: k === 'sample' ? String : show,
      }))}
    />
  );
}

/** The label of an engine QC key (qc.json), the key itself when it has no translation. */
function qcKey(t: TFunction, key: string): string {
  return t(`quality.key.${key}`, { defaultValue: key });
}
