import { Alert, Select, Space, Spin, Table, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { categoricalColumns, defaultGroupColumn, levelLabelKey, sampleColumn } from '../annotationLevels';
import { EChart } from '../charts/EChart';
import type { ChartOption } from '../charts/echarts';
import { levelCacheKey } from '../levelCacheKey';
import { loadLevelCodes, type LevelCodes } from '../levelCodes';
import { columnProportions, groupProportionBoxes, sampleGroups } from '../stats/composition';
import { boxStats, crossTab } from '../stats/groupStats';
import { roeTable, roeVerdict } from '../stats/roe';
import { palette } from '../viewer/palettes';
import type { TabProps } from './registry';

/**
 * Cellular Composition: stacked bars per sample, proportions table, Ro/e with chi-square p, group
 * boxes. Every level can be picked: the analysis' and tasks' categorical columns and the saved
 * levels / subsets (`subset:<id>`).
 */
export function CompositionTab({ client, manifest, datasetId, subsets }: TabProps) {
  const { t } = useTranslation('explore');
  const cats = categoricalColumns(manifest);
  const label = (k: string) => {
    const saved = k.startsWith('subset:') ? subsets.find((s) => `subset:${s.id}` === k) : undefined;
    if (saved) return saved.name;
    return levelLabelKey(k) ? t(levelLabelKey(k)!) : k;
  };
  const options = [
    ...cats.map((c) => ({ value: c.key, label: label(c.key) })),
    ...subsets.map((s) => ({ value: `subset:${s.id}`, label: s.name })),
  ];
  const [typeKey, setTypeKey] = useState(defaultGroupColumn(manifest)?.key ?? '');
  const [byKey, setByKey] = useState(
    sampleColumn(manifest)?.key ?? cats.find((c) => c.key !== typeKey)?.key ?? typeKey,
  );
  const [groupKey, setGroupKey] = useState<string | null>(null);
  // loaded levels by levelCacheKey: a saved level edited after it was loaded is loaded again
  const [cols, setCols] = useState<Record<string, LevelCodes>>({});
  const cached = (k: string) => cols[levelCacheKey(k, subsets)];

  useEffect(() => {
    let live = true;
    const keys = [typeKey, byKey, groupKey].filter(
      (k): k is string => Boolean(k) && !cols[levelCacheKey(k!, subsets)],
    );
    if (keys.length === 0) return undefined;
    const outside = t('subsets.outside');
    void Promise.all(keys.map((k) => loadLevelCodes(client, datasetId, subsets, k, outside))).then(
      (loaded) => {
        if (!live) return;
        setCols((c) => ({
          ...c,
          ...Object.fromEntries(
            loaded.filter((o): o is LevelCodes => !!o).map((o) => [levelCacheKey(o.key, subsets), o]),
          ),
        }));
      },
    );
    return () => {
      live = false;
    };
  }, [client, datasetId, subsets, typeKey, byKey, groupKey, cols, t]);

  const type = cached(typeKey);
  const by = cached(byKey);
  const group = groupKey ? cached(groupKey) : undefined;
  const result = useMemo(() => {
    if (!type || !by) return null;
    const counts = crossTab(type.codes, type.labels.length, by.codes, by.labels.length);
    return { counts, props: columnProportions(counts), roe: roeTable(counts) };
  }, [type, by]);

  if (!result || !type || !by) return <Spin />;
  const colours = palette('Default');
  const bars: ChartOption = {
    animation: false,
    tooltip: { trigger: 'axis', valueFormatter: (v) => `${(Number(v) * 100).toFixed(1)}%` },
    legend: { type: 'scroll', bottom: 0 },
    grid: { left: 60, right: 20, top: 20, bottom: 80 },
    xAxis: { type: 'category', data: by.labels, axisLabel: { rotate: by.labels.length > 8 ? 40 : 0 } },
    yAxis: { type: 'value', max: 1, axisLabel: { formatter: (v: number) => `${Math.round(v * 100)}%` } },
    series: type.labels.map((l, i) => ({
      type: 'bar',
      stack: 'p',
      name: l,
      data: result.props[i],
      itemStyle: { color: colours[i % colours.length] },
    })),
  };
  const roeData: number[][] = [];
  result.roe.roe.forEach((row, i) =>
    row.forEach((v, j) => roeData.push([j, i, Number.isFinite(v) ? Number(v.toFixed(2)) : 0])),
  );
  const roeChart: ChartOption = {
    animation: false,
    tooltip: { position: 'top' },
    grid: { left: 140, right: 90, top: 10, bottom: 70 },
    xAxis: { type: 'category', data: by.labels, axisLabel: { rotate: 40 } },
    yAxis: { type: 'category', data: type.labels },
    visualMap: {
      min: 0,
      max: 2,
      calculable: true,
      orient: 'vertical',
      right: 0,
      top: 'middle',
      inRange: { color: ['#2166ac', '#f7f7f7', '#b2182b'] },
    },
    series: [
      { type: 'heatmap', data: roeData, label: { show: type.labels.length * by.labels.length <= 200 } },
    ],
  };
  const boxes = group
    ? groupProportionBoxes(
        result.props,
        sampleGroups(by.codes, by.labels.length, group.codes, group.labels.length),
        group.labels,
      )
    : null;
  const pText = result.roe.pValue.toExponential(2);
  const verdict = roeVerdict(result.roe);

  return (
    <Space orientation="vertical" style={{ width: '100%' }} data-testid="tab-cellularComposition">
      <Space wrap>
        <span>{t('composition.cellTypes')}</span>
        <Select
          data-testid="composition-types"
          value={typeKey}
          style={{ width: 180 }}
          onChange={setTypeKey}
          options={options}
        />
        <span>{t('composition.by')}</span>
        <Select value={byKey} style={{ width: 180 }} onChange={setByKey} options={options} />
        <span>{t('composition.groups')}</span>
        <Select
          allowClear
          value={groupKey}
          placeholder={t('composition.noGroups')}
          style={{ width: 180 }}
          onChange={(v?: string) => setGroupKey(v ?? null)}
          options={options}
        />
      </Space>
      <EChart option={bars} fileName="composition" height={360} testId="composition-bars" />
      <Table
        size="small"
        rowKey="label"
        pagination={false}
        scroll={{ x: true }}
        dataSource={type.labels.map((l, i) => ({
          label: l,
          ...Object.fromEntries(by.labels.map((b, j) => [b, result.props[i]![j]!])),
        }))}
        columns={[
          { title: label(typeKey), dataIndex: 'label', fixed: 'left' as const },
          ...by.labels.map((b) => ({
            title: b,
            dataIndex: b,
            render: (v: number) => `${(v * 100).toFixed(1)}%`,
          })),
        ]}
      />
      <Typography.Title level={5}>{t('composition.roe')}</Typography.Title>
      {verdict === 'single' && (
        <Alert
          data-testid="roe-single"
          type="info"
          showIcon
          title={t('composition.roeSingle', { by: label(byKey) })}
        />
      )}
      {verdict === 'significant' && (
        <Typography.Text data-testid="roe-p">
          {t('composition.roeP', { p: pText, chi: result.roe.chiSquare.toFixed(2), df: result.roe.df })}
        </Typography.Text>
      )}
      {verdict === 'chance' && (
        <Alert
          data-testid="roe-failed"
          type="warning"
          showIcon
          title={t('composition.roeFailed', { p: pText })}
        />
      )}
      {verdict !== 'single' && (
        <EChart option={roeChart} fileName="roe" height={Math.max(240, 60 + 22 * type.labels.length)} />
      )}
      {boxes && !boxes.ok && (
        <Alert
          type="info"
          showIcon
          title={t('composition.needThreeSamples', { groups: boxes.groupsTooSmall.join(', ') })}
        />
      )}
      {boxes?.ok && group && (
        <EChart
          fileName="composition-groups"
          height={360}
          option={{
            animation: false,
            legend: { bottom: 0 },
            tooltip: {},
            grid: { left: 60, right: 20, top: 20, bottom: 90 },
            xAxis: { type: 'category', data: type.labels, axisLabel: { rotate: 40 } },
            yAxis: { type: 'value', name: t('composition.proportion') },
            series: group.labels.map((g, gi) => ({
              type: 'boxplot',
              name: g,
              itemStyle: { color: colours[gi % colours.length] },
              data: boxes.boxes.map((perGroup) => {
                const b = boxStats(Float64Array.from(perGroup[gi] ?? []));
                return [b.min, b.q1, b.median, b.q3, b.max];
              }),
            })),
          }}
        />
      )}
    </Space>
  );
}
