import { Alert, Button, Segmented, Space, message } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CnvHeatmapLayout } from '../contract';
import { useTaskHost } from '../../_shared/web/host';
import { drawDecorations, geometry, heatmapSvg, renderBody } from './heatmapRender';

const HEIGHT = 560;

function paint(
  canvas: HTMLCanvasElement,
  layout: CnvHeatmapLayout,
  bytes: Uint8Array,
  width: number,
  height: number,
  scale: number,
  by: 'type' | 'subclone',
  legend: string,
): void {
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d')!;
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, width, height);
  const g = geometry(width, height, scale);
  const bw = Math.round(g.bodyW);
  const bh = Math.round(g.bodyH);
  const img = new ImageData(renderBody(layout, bytes, bw, bh) as Uint8ClampedArray<ArrayBuffer>, bw, bh);
  ctx.putImageData(img, Math.round(g.left), Math.round(g.top));
  drawDecorations(
    ctx,
    layout,
    { ...g, bodyW: bw, bodyH: bh, left: Math.round(g.left), top: Math.round(g.top) },
    by,
    { legend },
    scale,
  );
}

/** The inferCNV-style heat map on a canvas, with PNG (≥ 4200 px), SVG and TIFF export. */
export function CnvHeatmap({
  layout,
  bytes,
  fileName,
}: {
  layout: CnvHeatmapLayout;
  bytes: Uint8Array;
  fileName: string;
}) {
  const { t } = useTranslation('tasks');
  const { download: downloadBlob, exportScale, svgToTiff } = useTaskHost();
  const box = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const [by, setBy] = useState<'type' | 'subclone'>('type');
  const [width, setWidth] = useState(900);
  const [tiffBusy, setTiffBusy] = useState(false);

  useEffect(() => {
    const el = box.current;
    if (!el) return undefined;
    const ro = new ResizeObserver(() => setWidth(Math.max(480, Math.floor(el.clientWidth))));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  useEffect(() => {
    if (canvas.current)
      paint(canvas.current, layout, bytes, width, HEIGHT, 1, by, t('cnv.view.heatmap.legend'));
  }, [layout, bytes, width, by, t]);

  const exportPng = () => {
    const s = exportScale(HEIGHT);
    const c = document.createElement('canvas');
    paint(c, layout, bytes, width * s, HEIGHT * s, s, by, t('cnv.view.heatmap.legend'));
    c.toBlob((b) => b && downloadBlob(b, `${fileName}.png`), 'image/png');
  };
  const svgText = (): string => {
    const g = geometry(width, HEIGHT);
    const c = document.createElement('canvas');
    const bw = layout.bins;
    const bh = Math.min(layout.rows, 4200);
    c.width = bw;
    c.height = bh;
    c.getContext('2d')!.putImageData(
      new ImageData(renderBody(layout, bytes, bw, bh) as Uint8ClampedArray<ArrayBuffer>, bw, bh),
      0,
      0,
    );
    return heatmapSvg(layout, c.toDataURL('image/png'), g, by, { legend: t('cnv.view.heatmap.legend') });
  };
  const exportSvg = () => downloadBlob(new Blob([svgText()], { type: 'image/svg+xml' }), `${fileName}.svg`);
  const exportTiff = async () => {
    setTiffBusy(true);
    try {
      downloadBlob(await svgToTiff(svgText(), fileName), `${fileName}.tiff`);
    } catch (e) {
      void message.error(
        t('cnv.view.export.tiffFailed', { detail: e instanceof Error ? e.message : String(e) }),
      );
    } finally {
      setTiffBusy(false);
    }
  };

  return (
    <div ref={box} data-testid="cnv-heatmap">
      <Space style={{ marginBottom: 8, width: '100%', justifyContent: 'space-between' }} wrap>
        <Segmented
          data-testid="cnv-heatmap-by"
          value={by}
          onChange={(v) => setBy(v as 'type' | 'subclone')}
          options={[
            { value: 'type', label: t('cnv.view.heatmap.byType') },
            { value: 'subclone', label: t('cnv.view.heatmap.bySubclone') },
          ]}
        />
        <Space size={4}>
          <Button size="small" onClick={exportPng} data-testid="cnv-heatmap-png">
            {t('cnv.view.export.png')}
          </Button>
          <Button size="small" onClick={exportSvg} data-testid="cnv-heatmap-svg">
            {t('cnv.view.export.svg')}
          </Button>
          <Button
            size="small"
            loading={tiffBusy}
            onClick={() => void exportTiff()}
            data-testid="cnv-heatmap-tiff"
          >
            {t('cnv.view.export.tiff')}
          </Button>
        </Space>
      </Space>
      {layout.downsampled && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 8 }}
          title={t('cnv.view.heatmap.downsampled', { shown: layout.rows, total: layout.totalCells })}
        />
      )}
      <canvas
        ref={canvas}
        style={{ width, height: HEIGHT, display: 'block' }}
        aria-label={t('cnv.view.heatmap.title')}
      />
      <div style={{ color: '#666', fontSize: 12 }}>
        {t('cnv.view.heatmap.caption', { genes: layout.genesPerBin, cells: layout.rows })}
      </div>
    </div>
  );
}
