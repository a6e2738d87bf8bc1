import { Button, Space, message } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { svgToTiff } from '../../../api/exploreJobs';
import { useTranslation } from 'react-i18next';
import { downloadBlob, exportScale } from '../viewer/exportImage';
import { echarts, type ChartOption } from './echarts';

interface Props {
  option: ChartOption;
  height?: number;
  fileName: string;
  testId?: string;
}

/**
 * Every series painted in one frame. With progressive rendering (ECharts' default above 3,000
 * points) zrender keeps painting in later animation frames and throws "Cannot read properties of
 * null (reading 'layerStack')" when the chart is disposed in between (seen when a tab unmounts
 * while a large violin is still painting). Our charts hold at most a few hundred thousand points.
 * Scatter series take ECharts' large mode unless they say otherwise (it applies above 2,000
 * points): one path per series instead of an arc and a fill per point, which held the main thread
 * for 12–16 s per paint with the DE tab's 60,000-point volcano on a loaded machine.
 */
function forScreen(option: ChartOption): ChartOption {
  return mapSeries(option, (s) => ({
    progressive: 0,
    ...((s as { type?: string }).type === 'scatter' ? { large: true } : {}),
    ...s,
  }));
}

function mapSeries(option: ChartOption, f: (series: object) => object): ChartOption {
  const series = option.series;
  if (!series) return option;
  return { ...option, series: Array.isArray(series) ? series.map(f) : f(series) } as ChartOption;
}

/**
 * zrender's canvas painter splits a long paint over animation frames and each later frame first
 * checks that its redraw id is still the painter's (`_paintList`); a frame that runs after
 * `dispose()` reads the painter's layers, which are gone, and throws "Cannot read properties of null
 * (reading 'layerStack')" (a tab unmounted while a chart was painting). A redraw id no frame holds
 * makes those frames return at once. zrender 5/6 internals, hence the guard on the field's type.
 */
function stopPendingFrames(c: echarts.ECharts): void {
  const painter = c.getZr().painter as unknown as { _redrawId?: unknown };
  if (typeof painter._redrawId === 'number') painter._redrawId = Number.NaN;
}

/**
 * The SVG / TIFF export draws every point as its own element: a large-mode series (the on-screen
 * canvas draws its points as one path) becomes one SVG path of up to 60,000 sub-paths, which
 * librsvg does not rasterize in minutes at the TIFF's size; separate elements take ≈ 20 s.
 */
function withoutLargeMode(option: ChartOption): ChartOption {
  return mapSeries(option, (s) => ({ ...s, large: false }));
}

/** One ECharts chart with PNG (≥ 4200 px high, docs/product/limits.md#exports), SVG and TIFF (server-side conversion) export. */
export function EChart({ option, height = 360, fileName, testId }: Props) {
  const { t } = useTranslation('explore');
  const el = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);

  useEffect(() => {
    const c = echarts.init(el.current!, null, { renderer: 'canvas' });
    chart.current = c;
    const ro = new ResizeObserver(() => c.resize());
    ro.observe(el.current!);
    return () => {
      ro.disconnect();
      stopPendingFrames(c);
      c.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    chart.current?.setOption(forScreen(option), { notMerge: true });
  }, [option]);

  const exportPng = async () => {
    const c = chart.current;
    if (!c) return;
    const url = c.getDataURL({
      type: 'png',
      pixelRatio: exportScale(c.getHeight()),
      backgroundColor: '#fff',
    });
    downloadBlob(await (await fetch(url)).blob(), `${fileName}.png`);
  };
  const svgText = (): string | null => {
    const c = chart.current;
    if (!c) return null;
    const ssr = echarts.init(null, null, {
      renderer: 'svg',
      ssr: true,
      width: c.getWidth(),
      height: c.getHeight(),
    });
    ssr.setOption({ ...withoutLargeMode(option), animation: false });
    const svg = ssr.renderToSVGString();
    ssr.dispose();
    return svg;
  };
  const exportSvg = () => {
    const svg = svgText();
    if (svg) downloadBlob(new Blob([svg], { type: 'image/svg+xml' }), `${fileName}.svg`);
  };
  const [tiffBusy, setTiffBusy] = useState(false);
  const exportTiff = async () => {
    const svg = svgText();
    if (!svg) return;
    setTiffBusy(true);
    try {
      downloadBlob(await svgToTiff(svg, fileName), `${fileName}.tiff`);
    } catch (e) {
      void message.error(t('export.tiffFailed', { detail: e instanceof Error ? e.message : String(e) }));
    } finally {
      setTiffBusy(false);
    }
  };

  return (
    <div data-testid={testId}>
      <Space size={4} style={{ float: 'right', position: 'relative', zIndex: 1 }}>
        <Button size="small" onClick={() => void exportPng()}>
          {t('export.png')}
        </Button>
        <Button size="small" onClick={exportSvg}>
          {t('export.svg')}
        </Button>
        <Button
          size="small"
          data-testid={testId ? `${testId}-tiff` : 'chart-export-tiff'}
          loading={tiffBusy}
          onClick={() => void exportTiff()}
        >
          {t('export.tiff')}
        </Button>
      </Space>
      <div ref={el} style={{ width: '100%', height }} />
    </div>
  );
}
