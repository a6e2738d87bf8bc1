import { Card, Radio, Select, Space, Table, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { palette } from '@cellcloud/formats/palettes';
import type { Cell } from '@cellcloud/formats/table-export';
import { ExportButtons } from '../../_shared/web/ExportButtons';
import { useTaskHost } from '../../_shared/web/host';
import { interactionCategories, type InteractionCategory } from '../contract';
import {
  countHeatmapOption,
  dotPlotHeight,
  dotPlotOption,
  networkOption,
  type InteractionData,
} from '../figures';

/**
 * Cell interaction results (issue 16). Step 1: heat map of significant-interaction counts per
 * ordered cell-type pair (count or log), the cell-type network, the dot plot of the top 30 pairs
 * over every cell-type pair. Step 2: the user picks cell-type pairs and ligand–receptor pairs (or a
 * curated category) and gets the detail dot plot and its table (CSV/XLSX). Charts export PNG
 * (≥ 4200 px), SVG and TIFF through the host's Chart.
 */
export function InteractionView({ data }: { data: InteractionData }) {
  const { t } = useTranslation('tasks');
  const EChart = useTaskHost().components.Chart;
  const { summary, meta } = data;
  const types = useMemo(() => summary.cellTypes.map((c) => c.name), [summary]);
  const nP = meta.pairs.length;
  const [scale, setScale] = useState<'count' | 'log'>('count');
  const colours = useMemo(() => [...palette('Default')], []);
  const allPairs = useMemo(() => meta.pairs.map((_, q) => q), [meta]);
  const topRows = useMemo(() => summary.top30.map((r) => r.index), [summary]);

  const heat = useMemo(
    () =>
      countHeatmapOption(types, summary.counts, scale === 'log', {
        source: t('interaction.view.axis.source'),
        target: t('interaction.view.axis.target'),
        count: scale === 'log' ? t('interaction.view.axis.logCount') : t('interaction.view.axis.count'),
      }),
    [types, summary, scale, t],
  );
  const network = useMemo(() => networkOption(summary, colours), [summary, colours]);
  const dotLabels = useMemo(
    () => ({ mean: t('interaction.view.axis.mean'), pvalue: t('interaction.view.axis.pvalue') }),
    [t],
  );
  const topDots = useMemo(
    () => dotPlotOption(data, topRows, allPairs, dotLabels),
    [data, topRows, allPairs, dotLabels],
  );

  // step 2 selection
  const [cellPairs, setCellPairs] = useState<number[]>([]);
  const [lrPairs, setLrPairs] = useState<number[]>([]);
  const [category, setCategory] = useState<InteractionCategory | 'none'>('none');
  const rows = useMemo(() => {
    if (category !== 'none') {
      return meta.interactions
        .map((it, i) => ({ it, i }))
        .filter(({ it }) => it.categories.includes(category))
        .map(({ i }) => i);
    }
    return lrPairs.length ? lrPairs : topRows;
  }, [category, lrPairs, meta, topRows]);
  const pairs = cellPairs.length ? cellPairs : allPairs;
  const detailDots = useMemo(
    () => dotPlotOption(data, rows, pairs, dotLabels),
    [data, rows, pairs, dotLabels],
  );

  const header = [
    t('interaction.view.col.interactingCell'),
    t('interaction.view.col.interactingPair'),
    t('interaction.view.col.secreted'),
    t('interaction.view.col.receptorA'),
    t('interaction.view.col.receptorB'),
    t('interaction.view.col.means'),
    t('interaction.view.col.pvalues'),
    t('interaction.view.col.rankValue'),
  ];
  const detailRows = useMemo(() => {
    const out: { key: string; cells: Cell[] }[] = [];
    for (const i of rows) {
      const it = meta.interactions[i]!;
      for (const q of pairs) {
        const m = data.means[i * nP + q]!;
        const p = data.pvalues[i * nP + q]!;
        out.push({
          key: `${i}-${q}`,
          cells: [
            meta.pairs[q]!,
            it.pair,
            it.secreted ? 'True' : 'False',
            it.receptorA ? 'True' : 'False',
            it.receptorB ? 'True' : 'False',
            Math.round(m * 1000) / 1000,
            Math.round(p * 1000) / 1000,
            it.rank,
          ],
        });
      }
    }
    return out;
  }, [rows, pairs, meta, data, nP]);

  const typeCount = summary.cellTypes.length;
  return (
    <Space orientation="vertical" style={{ width: '100%' }} data-testid="interaction-view">
      <Typography.Text data-testid="interaction-summary">
        {t('interaction.view.summary', {
          types: typeCount,
          interactions: summary.nInteractions,
          significant: summary.nSignificant,
          iterations: summary.iterations,
        })}
      </Typography.Text>
      <Card size="small" title={t('interaction.view.step1.title')}>
        <Space orientation="vertical" style={{ width: '100%' }}>
          <Radio.Group
            data-testid="interaction-heat-scale"
            value={scale}
            onChange={(e) => setScale(e.target.value as 'count' | 'log')}
            options={[
              { value: 'count', label: t('interaction.view.heat.count') },
              { value: 'log', label: t('interaction.view.heat.log') },
            ]}
          />
          <EChart
            option={heat}
            height={Math.max(320, 120 + 28 * typeCount)}
            fileName={`interaction_heatmap_${scale}`}
            testId="interaction-heatmap"
          />
          <Typography.Title level={5}>{t('interaction.view.network.title')}</Typography.Title>
          <EChart option={network} height={420} fileName="interaction_network" testId="interaction-network" />
          <Typography.Title level={5}>{t('interaction.view.top30.title')}</Typography.Title>
          <EChart
            option={topDots}
            height={dotPlotHeight(topRows.length)}
            fileName="interaction_top30"
            testId="interaction-top30"
          />
        </Space>
      </Card>
      <Card size="small" title={t('interaction.view.step2.title')}>
        <Space orientation="vertical" style={{ width: '100%' }}>
          <Space wrap>
            <Select
              data-testid="interaction-cell-pairs"
              mode="multiple"
              allowClear
              style={{ minWidth: 320 }}
              placeholder={t('interaction.view.step2.cellPairs')}
              value={cellPairs}
              onChange={setCellPairs}
              optionFilterProp="label"
              options={meta.pairs.map((p, q) => ({ value: q, label: p }))}
            />
            <Select
              data-testid="interaction-lr-pairs"
              mode="multiple"
              allowClear
              style={{ minWidth: 320 }}
              placeholder={t('interaction.view.step2.lrPairs')}
              value={lrPairs}
              disabled={category !== 'none'}
              onChange={setLrPairs}
              optionFilterProp="label"
              options={meta.interactions.map((it, i) => ({ value: i, label: it.pair }))}
            />
            <Select
              data-testid="interaction-category"
              style={{ minWidth: 200 }}
              value={category}
              onChange={setCategory}
              options={[
                { value: 'none', label: t('interaction.view.category.none') },
                ...interactionCategories.map((c) => ({
                  value: c,
                  label: t(`interaction.view.category.${c}`),
                })),
              ]}
            />
          </Space>
          <Typography.Text type="secondary">
            {t('interaction.view.step2.hint', { rows: rows.length, pairs: pairs.length })}
          </Typography.Text>
          <EChart
            option={detailDots}
            height={dotPlotHeight(rows.length)}
            fileName="interaction_detail"
            testId="interaction-detail"
          />
          <ExportButtons
            header={header}
            rows={() => detailRows.map((r) => r.cells)}
            fileName="interaction_detail"
            testId="interaction-detail-export"
          />
          <Table
            data-testid="interaction-detail-table"
            size="small"
            rowKey="key"
            dataSource={detailRows}
            pagination={{ pageSize: 20, showSizeChanger: false }}
            columns={header.map((title, k) => ({
              title,
              key: String(k),
              render: (_: unknown, r: { cells: Cell[] }) => r.cells[k],
            }))}
          />
        </Space>
      </Card>
    </Space>
  );
}
