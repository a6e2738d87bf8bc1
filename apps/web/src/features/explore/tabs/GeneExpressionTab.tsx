import { Alert, Empty, Radio, Select, Space, Switch, Tag, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { categoricalColumns, defaultGroupColumn, embeddingChoices, levelLabelKey } from '../annotationLevels';
import { EChart } from '../charts/EChart';
import { dotPlotOption, heatmapOption } from '../charts/expressionOptions';
import { ViolinChart } from '../charts/ViolinChart';
import type { NormalizedEmbedding } from '../data/decode';
import { GeneSearch, type GeneOption } from '../GeneSearch';
import { loadLevelCodes, type LevelCodes } from '../levelCodes';
import { meanAndPct } from '../stats/groupStats';
import { CANONICAL_MARKERS, markerSymbol } from './canonicalMarkers';
import { FeaturePlot } from './FeaturePlot';
import type { TabProps } from './registry';
import { LAYER_KEYS, PLOT_KEYS } from '../i18nKeys';

type PlotKind = 'feature' | 'violin' | 'dot' | 'heatmap';
interface GeneData {
  gene: GeneOption;
  values: Float32Array;
  max: number;
}

/**
 * Gene Expression: autocomplete gene search, feature plots side by side, violin, dot plot, heatmap;
 * grouped by any level (analysis / task columns and saved levels).
 */
export function GeneExpressionTab({
  client,
  manifest,
  symbols,
  canonicalMarkers,
  datasetId,
  subsets,
}: TabProps) {
  const { t } = useTranslation('explore');
  const [genes, setGenes] = useState<GeneOption[]>([]);
  const [groupKey, setGroupKey] = useState(defaultGroupColumn(manifest)?.key ?? '');
  const [layer, setLayer] = useState<'counts' | 'normalized'>(
    manifest.layers.some((l) => l.name === 'normalized') ? 'normalized' : 'counts',
  );
  const [kind, setKind] = useState<PlotKind>('feature');
  const [showMarkers, setShowMarkers] = useState(canonicalMarkers);
  const [group, setGroup] = useState<LevelCodes | null>(null);
  const [loaded, setLoaded] = useState<GeneData[]>([]);
  const [emb, setEmb] = useState<NormalizedEmbedding | null>(null);
  const [missing, setMissing] = useState<string | null>(null);
  const lookup = useMemo(() => new Map(symbols.map((s, i) => [s.toUpperCase(), i])), [symbols]);
  const emb2d = embeddingChoices(manifest).find((e) => e.dims === 2);

  useEffect(() => {
    if (emb2d) void client.embedding(emb2d.name).then(setEmb);
  }, [client, emb2d]);
  useEffect(() => {
    let live = true;
    if (groupKey)
      void loadLevelCodes(client, datasetId, subsets, groupKey, t('subsets.outside')).then(
        (l) => live && setGroup(l ?? null),
      );
    return () => {
      live = false;
    };
  }, [client, datasetId, subsets, groupKey, t]);
  useEffect(() => {
    let live = true;
    void Promise.all(genes.map(async (gene) => ({ gene, ...(await client.gene(layer, gene.index)) }))).then(
      (d) => live && setLoaded(d),
    );
    return () => {
      live = false;
    };
  }, [client, genes, layer]);

  const add = (g: GeneOption) =>
    setGenes((gs) => (gs.some((x) => x.index === g.index) ? gs : [...gs, g].slice(-12)));
  const addMarker = async (human: string) => {
    const sym = markerSymbol(human, manifest.species);
    const idx = lookup.get(sym.toUpperCase());
    const g = idx === undefined ? null : await client.gene(layer, idx);
    if (idx === undefined || !g || g.max === 0) {
      setMissing(sym);
      return;
    }
    setMissing(null);
    add({ index: idx, symbol: symbols[idx]! });
  };

  const cat = group;
  const summary = useMemo(() => {
    if (!cat || loaded.length === 0) return null;
    const stats = loaded.map((g) => meanAndPct(g.values, cat.codes, cat.labels.length));
    return { mean: stats.map((s) => s.mean), pct: stats.map((s) => s.pct) };
  }, [cat, loaded]);
  const names = loaded.map((g) => g.gene.symbol);

  return (
    <Space orientation="vertical" style={{ width: '100%' }} data-testid="tab-geneExpression">
      <Space wrap>
        <GeneSearch symbols={symbols} onPick={add} />
        <Select
          value={groupKey}
          style={{ width: 180 }}
          onChange={setGroupKey}
          options={[
            ...categoricalColumns(manifest).map((o) => ({
              value: o.key,
              label: levelLabelKey(o.key) ? t(levelLabelKey(o.key)!) : o.key,
            })),
            ...subsets.map((s) => ({ value: `subset:${s.id}`, label: s.name })),
          ]}
        />
        <Select
          value={layer}
          style={{ width: 130 }}
          onChange={setLayer}
          options={manifest.layers.map((l) => ({ value: l.name, label: t(LAYER_KEYS[l.name]) }))}
        />
        <Radio.Group value={kind} onChange={(e) => setKind(e.target.value as PlotKind)}>
          {(['feature', 'violin', 'dot', 'heatmap'] as const).map((k) => (
            <Radio.Button key={k} value={k}>
              {t(PLOT_KEYS[k])}
            </Radio.Button>
          ))}
        </Radio.Group>
        {canonicalMarkers && (
          <Space size={4}>
            <Switch data-testid="canonical-switch" checked={showMarkers} onChange={setShowMarkers} />
            {t('gene.canonicalMarkers')}
          </Space>
        )}
      </Space>
      {canonicalMarkers && showMarkers && (
        <div>
          {CANONICAL_MARKERS.map((m) => (
            <span key={m.cellType} style={{ marginRight: 12 }}>
              <Typography.Text type="secondary">
                {t(`gene.markerTypes.${m.key}`, { defaultValue: m.cellType })}:{' '}
              </Typography.Text>
              {m.genes.map((g) => (
                <Tag key={g} style={{ cursor: 'pointer' }} onClick={() => void addMarker(g)}>
                  {markerSymbol(g, manifest.species)}
                </Tag>
              ))}
            </span>
          ))}
        </div>
      )}
      {missing && (
        <Alert
          type="warning"
          showIcon
          title={`${missing}: ${t('gene.notExpressed')}`}
          closable
          onClose={() => setMissing(null)}
        />
      )}
      <div>
        {genes.map((g) => (
          <Tag key={g.index} closable onClose={() => setGenes((gs) => gs.filter((x) => x.index !== g.index))}>
            {g.symbol}
          </Tag>
        ))}
      </div>
      {genes.length === 0 && <Empty description={t('gene.pickGenes')} />}
      {kind === 'feature' && emb && (
        <div
          style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(300px, 1fr))', gap: 8 }}
        >
          {genes.slice(0, 8).map((g) => (
            <FeaturePlot key={`${g.index}-${layer}`} client={client} embedding={emb} gene={g} layer={layer} />
          ))}
        </div>
      )}
      {kind === 'violin' &&
        cat &&
        loaded.map((g) => (
          <div key={g.gene.index}>
            <Typography.Title level={5}>{g.gene.symbol}</Typography.Title>
            {g.max === 0 && <Typography.Text type="warning">{t('gene.notExpressed')}</Typography.Text>}
            <ViolinChart
              groups={cat.labels}
              values={g.values}
              codes={cat.codes}
              yName={t(LAYER_KEYS[layer])}
              fileName={`violin-${g.gene.symbol}`}
            />
          </div>
        ))}
      {kind === 'dot' && cat && summary && (
        <EChart
          option={dotPlotOption(names, cat.labels, summary.mean, summary.pct, {
            mean: t('gene.meanExpr'),
            pct: t('gene.pctExpr'),
          })}
          fileName="dotplot"
          height={120 + 36 * names.length}
          testId="dotplot"
        />
      )}
      {kind === 'heatmap' && cat && summary && (
        <EChart
          option={heatmapOption(names, cat.labels, summary.mean, t('gene.zscore'))}
          fileName="heatmap"
          height={120 + 30 * names.length}
        />
      )}
    </Space>
  );
}
