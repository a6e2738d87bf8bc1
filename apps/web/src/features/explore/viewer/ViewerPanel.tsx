import { Alert, Button, Card, Space, Spin, Typography, message } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ArtifactManifest } from '@cellcloud/contracts/artifacts';
import type { SubsetView } from '@cellcloud/contracts/explore';
import { fetchSubsetCodes, useSubsetAction } from '../../../api/explore';
import { SubsetPanel } from '../subsets/SubsetPanel';
import type { ArtifactClient } from '../data/ArtifactClient';
import type { EmbeddingResult, ObsColumn } from '../data/protocol';
import { defaultGroupColumn, embeddingChoices } from '../annotationLevels';
import { ClusterLabels } from './ClusterLabels';
import {
  EmbeddingViewer,
  type DrawTiming,
  type EmbeddingViewerHandle,
  type ViewState,
  VIEWER_HEIGHT,
} from './EmbeddingViewer';
import { firstFrameOf } from './firstFrame';
import { knownRenderer } from './rendererChoice';
import { downloadBlob, exportScale, imageDataToPng } from './exportImage';
import { LabelTransferSummary } from './LabelTransferSummary';
import { Legend } from './Legend';
import { project3D } from './scatterPoints';
import { useColouring } from './useColouring';
import { ViewerToolbar, type ViewerSettings } from './ViewerToolbar';

interface Props {
  client: ArtifactClient;
  manifest: ArtifactManifest;
  /** null on pages without a server (benchmarks): subsets are then not offered */
  datasetId: string | null;
  subsets: SubsetView[];
  symbols: string[];
  onSelection: (points: number[]) => void;
  onDrawn?: (t: DrawTiming) => void;
}

const EMPTY = new Map<number, string>();

/** The embedding card: toolbar, scatter (CPU-splatted canvas), labels, legend, hover tooltip and selection count. */
export function ViewerPanel({ client, manifest, datasetId, subsets, symbols, onSelection, onDrawn }: Props) {
  const { t } = useTranslation('explore');
  const viewer = useRef<EmbeddingViewerHandle>(null);
  const [settings, setSettings] = useState<ViewerSettings>(() => ({
    embedding: embeddingChoices(manifest)[0]?.name ?? '',
    colourBy: { kind: 'obs', key: defaultGroupColumn(manifest)?.key ?? '' },
    layer: manifest.layers.some((l) => l.name === 'normalized') ? 'normalized' : 'counts',
    palette: 'Default',
    labelPosition: 'onSide',
    colourMode: 'default',
    mouseMode: 'panZoom',
    yaw: 30,
    pitch: 15,
  }));
  const [custom, setCustom] = useState<Record<string, Map<number, string>>>({});
  const [emb, setEmb] = useState<EmbeddingResult | null>(null);
  const [embError, setEmbError] = useState<string | null>(null);
  const [view, setView] = useState<ViewState | null>(null);
  const [hover, setHover] = useState<{ index: number; px: number; py: number } | null>(null);
  const [selected, setSelected] = useState<number[]>([]);

  const area = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let live = true;
    setEmbError(null);
    // a 2-D embedding's first frame is splatted by the worker as the positions arrive, for a canvas
    // of the area's width (the CPU renderer shows it; not asked for when WebGL is known to draw)
    const width = area.current?.getBoundingClientRect().width ?? 0;
    const dims = manifest.embeddings.find((e) => e.name === settings.embedding)?.dims;
    const frame =
      dims === 2 && width > 0 && knownRenderer() !== 'webgl'
        ? firstFrameOf(width, VIEWER_HEIGHT, manifest.nCells, window.devicePixelRatio)
        : undefined;
    client.embedding(settings.embedding, frame).then(
      (e) => live && setEmb(e),
      (e: unknown) => live && setEmbError(e instanceof Error ? e.message : String(e)),
    );
    return () => {
      live = false;
    };
  }, [client, manifest, settings.embedding]);

  const action = useSubsetAction(datasetId ?? '');
  const loadSubset = useMemo(
    () => (datasetId ? (id: string) => fetchSubsetCodes(datasetId, id) : null),
    [datasetId],
  );
  // keep a subset colouring in step with the list (recolour, rename, merge refresh it)
  useEffect(() => {
    const by = settings.colourBy;
    if (by.kind !== 'subset') return;
    const fresh = subsets.find((x) => x.id === by.subset.id);
    if (!fresh)
      setSettings((st) => ({
        ...st,
        colourBy: { kind: 'obs', key: defaultGroupColumn(manifest)?.key ?? '' },
      }));
    else if (fresh.updatedAt !== by.subset.updatedAt)
      setSettings((st) => ({ ...st, colourBy: { kind: 'subset', subset: fresh } }));
  }, [subsets, settings.colourBy, manifest]);
  const overrides =
    settings.colourBy.kind === 'obs' && settings.colourMode === 'customize'
      ? (custom[settings.colourBy.key] ?? EMPTY)
      : EMPTY;
  const colour = useColouring(
    client,
    settings.colourBy,
    settings.palette,
    overrides,
    loadSubset,
    t('subsets.outside'),
  );
  const recolour = (i: number, c: string) => {
    const by = settings.colourBy;
    if (by.kind === 'obs') setCustom((m) => ({ ...m, [by.key]: new Map(m[by.key] ?? []).set(i, c) }));
    else if (by.kind === 'subset' && i < by.subset.labels.length) {
      action.mutate(
        { kind: 'colours', body: { subsetId: by.subset.id, colours: { [by.subset.labels[i]!]: c } } },
        { onError: (e) => void message.error(e.message) },
      );
    }
  };
  // labels on cluster: the colouring's groups, or the default grouping when colouring by a gene
  const [groupCol, setGroupCol] = useState<ObsColumn | null>(null);
  useEffect(() => {
    const key = defaultGroupColumn(manifest)?.key;
    if (settings.labelPosition !== 'onCluster' || !key) return;
    let live = true;
    void client.obs(key).then((c) => live && setGroupCol(c));
    return () => {
      live = false;
    };
  }, [client, manifest, settings.labelPosition]);
  const labelCol =
    colour.column?.kind === 'categorical'
      ? colour.column
      : groupCol?.kind === 'categorical'
        ? groupCol
        : null;
  const xy = useMemo(() => {
    if (!emb) return null;
    return emb.z ? project3D(emb.x, emb.y, emb.z, settings.yaw, settings.pitch) : { x: emb.x, y: emb.y };
  }, [emb, settings.yaw, settings.pitch]);

  const onSelect = (points: number[]) => {
    setSelected(points);
    onSelection(points);
  };
  const exportPng = async () => {
    if (!viewer.current) return;
    const hide = message.loading(t('viewer.exporting'), 0);
    try {
      const { height } = viewer.current.canvasSize();
      const img = await viewer.current.exportImage(exportScale(height * window.devicePixelRatio));
      downloadBlob(await imageDataToPng(img), `${settings.embedding}.png`);
    } finally {
      hide();
    }
  };
  const legend = colour.legend;
  const hoverText = (() => {
    if (!hover || !colour.column)
      return hover && colour.colouring.kind === 'continuous'
        ? colour.colouring.values[hover.index]?.toFixed(3)
        : null;
    const c = colour.column;
    return c.kind === 'categorical' ? c.labels[c.codes[hover.index]!] : c.values[hover.index]?.toFixed(3);
  })();

  return (
    <Card size="small" data-testid="viewer-panel">
      <ViewerToolbar
        manifest={manifest}
        subsets={subsets}
        symbols={symbols}
        settings={settings}
        is3D={Boolean(emb?.z)}
        onChange={(patch) => setSettings((s) => ({ ...s, ...patch }))}
        onExport={() => void exportPng()}
      />
      {embError && <Alert type="error" showIcon title={t('viewer.loadFailed', { detail: embError })} />}
      {colour.error && (
        <Alert type="error" showIcon title={t('viewer.loadFailed', { detail: colour.error })} />
      )}
      {/* the legend wraps under the embedding on narrow screens, so the embedding keeps the panel's width */}
      <div style={{ display: 'flex', gap: 12, flexWrap: 'wrap' }}>
        <div ref={area} style={{ position: 'relative', flex: '1 1 280px', minWidth: 0 }}>
          {xy ? (
            <EmbeddingViewer
              ref={viewer}
              x={xy.x}
              y={xy.y}
              colouring={colour.colouring}
              firstFrame={emb?.z ? null : emb?.firstFrame}
              mouseMode={settings.mouseMode}
              onSelect={onSelect}
              onHover={setHover}
              onView={setView}
              onDrawn={onDrawn}
            />
          ) : (
            <Spin style={{ display: 'block', padding: 120 }} />
          )}
          {xy && settings.labelPosition === 'onCluster' && labelCol && (
            <ClusterLabels x={xy.x} y={xy.y} codes={labelCol.codes} labels={labelCol.labels} view={view} />
          )}
          {hover && hoverText != null && (
            <div
              data-testid="hover-tip"
              style={{
                position: 'absolute',
                left: hover.px + 10,
                top: hover.py + 10,
                background: 'rgba(0,0,0,.75)',
                color: '#fff',
                padding: '2px 6px',
                borderRadius: 4,
                fontSize: 12,
                pointerEvents: 'none',
              }}
            >
              {t('viewer.cell', { index: hover.index })}: {hoverText}
            </div>
          )}
        </div>
        {(settings.labelPosition === 'onSide' ||
          settings.colourMode === 'customize' ||
          legend?.kind === 'continuous') && (
          <div style={{ flex: '0 1 200px', minWidth: 160 }}>
            <Legend legend={legend} customize={settings.colourMode === 'customize'} onColour={recolour} />
          </div>
        )}
      </div>
      <LabelTransferSummary client={client} manifest={manifest} column={colour.column} />
      <Space style={{ marginTop: 8 }}>
        <Typography.Text data-testid="selection-count">
          {t('viewer.selected', { count: selected.length })}
        </Typography.Text>
        {selected.length > 0 && (
          <Button size="small" onClick={() => viewer.current?.select([])}>
            {t('viewer.clearSelection')}
          </Button>
        )}
      </Space>
      {datasetId && (
        <SubsetPanel
          datasetId={datasetId}
          manifest={manifest}
          subsets={subsets}
          selection={selected}
          onShow={(subset) => setSettings((st) => ({ ...st, colourBy: { kind: 'subset', subset } }))}
        />
      )}
    </Card>
  );
}
