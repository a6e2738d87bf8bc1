import { forwardRef, useEffect, useImperativeHandle, useRef } from 'react';
import createScatterplot from 'regl-scatterplot';
import { buildPoints, defaultPointSize, expressionDrawOrder, type Colouring } from './scatterPoints';
import { expressionRamp } from './gradient';

type Scatterplot = ReturnType<typeof createScatterplot>;

export interface ViewState {
  view: Float32Array;
  width: number;
  height: number;
}

export interface DrawTiming {
  /** 'positions' = new embedding drawn; 'colours' = same positions, new colouring */
  kind: 'positions' | 'colours';
  /** from the draw request to the frame after the points reached the GPU */
  ms: number;
}

export interface EmbeddingViewerProps {
  x: Float32Array;
  y: Float32Array;
  colouring: Colouring;
  mouseMode: 'panZoom' | 'lasso';
  onSelect?: (points: number[]) => void;
  onHover?: (hover: { index: number; px: number; py: number } | null) => void;
  onView?: (v: ViewState) => void;
  onDrawn?: (t: DrawTiming) => void;
  height?: number;
}

export interface EmbeddingViewerHandle {
  /** PNG of the current view rendered at `scale`× resolution. */
  exportImage(scale: number): Promise<ImageData>;
  select(points: number[]): void;
  canvasSize(): { width: number; height: number };
}

const RAMP = expressionRamp(64);
const nextFrame = () => new Promise<void>((r) => requestAnimationFrame(() => r()));

/**
 * WebGL scatter of one embedding (regl-scatterplot). Positions and colours are typed arrays from
 * the artifact worker; a recolour reuses the spatial index so only the point texture is rebuilt.
 */
export const EmbeddingViewer = forwardRef<EmbeddingViewerHandle, EmbeddingViewerProps>(function EmbeddingViewer(props, ref) {
  const { x, y, colouring, mouseMode, height = 560 } = props;
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const plotRef = useRef<Scatterplot | null>(null);
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  const drawn = useRef<{ x: Float32Array; y: Float32Array; index: ArrayBuffer | null } | null>(null);
  const cb = useRef(props);
  cb.current = props;

  useEffect(() => {
    const canvas = canvasRef.current!;
    const plot = createScatterplot({
      canvas,
      pointSize: defaultPointSize(x.length),
      backgroundColor: '#ffffff',
      lassoColor: '#1677ff',
      pointColorActive: '#1677ff',
      pointColorHover: '#111111',
      opacity: 0.9,
      performanceMode: x.length > 500_000,
    });
    plotRef.current = plot;
    // destroy() drops these subscriptions with the instance
    plot.subscribe('select', ({ points }) => cb.current.onSelect?.(points));
    plot.subscribe('deselect', () => cb.current.onSelect?.([]));
    plot.subscribe('pointOver', (index) => {
      const pos = plot.getScreenPosition(index);
      cb.current.onHover?.(pos ? { index, px: pos[0], py: pos[1] } : null);
    });
    plot.subscribe('pointOut', () => cb.current.onHover?.(null));
    plot.subscribe('view', ({ view }) => {
      const { width, height: h } = canvas.getBoundingClientRect();
      cb.current.onView?.({ view: view as Float32Array, width, height: h });
    });
    const ro = new ResizeObserver(() => plot.refresh());
    ro.observe(canvas);
    return () => {
      ro.disconnect();
      plot.destroy();
      plotRef.current = null;
      drawn.current = null;
    };
    // the plot is created once per mount; data changes go through draw below
  }, []);

  useEffect(() => {
    void plotRef.current?.set({ mouseMode });
  }, [mouseMode]);

  useEffect(() => {
    const plot = plotRef.current;
    if (!plot) return;
    const started = performance.now();
    queue.current = queue.current
      .catch(() => undefined)
      .then(async () => {
        const samePositions = drawn.current !== null && drawn.current.x === x && drawn.current.y === y;
        const points = buildPoints(x, y, colouring);
        if (colouring.kind === 'categorical') {
          await plot.set({ colorBy: 'valueZ', pointColor: colouring.colours, pointOrder: null });
        } else if (colouring.kind === 'continuous') {
          await plot.set({
            colorBy: 'valueW',
            pointColor: RAMP,
            pointOrder: x.length <= 200_000 ? expressionDrawOrder(colouring.values) : null,
          });
        } else {
          await plot.set({ colorBy: null, pointColor: '#8c8c8c', pointOrder: null });
        }
        await plot.draw(points, {
          zDataType: 'categorical',
          wDataType: 'continuous',
          preventFilterReset: samePositions,
          ...(samePositions && drawn.current?.index ? { spatialIndex: drawn.current.index } : {}),
        });
        if (!samePositions) {
          await plot.zoomToOrigin({ transition: false });
          drawn.current = { x, y, index: plot.get('spatialIndex') as ArrayBuffer };
        }
        await nextFrame();
        await nextFrame();
        cb.current.onDrawn?.({ kind: samePositions ? 'colours' : 'positions', ms: performance.now() - started });
      });
  }, [x, y, colouring]);

  useImperativeHandle(
    ref,
    () => ({
      async exportImage(scale) {
        const plot = plotRef.current;
        if (!plot) throw new Error('viewer not ready');
        return plot.export({ scale, antiAliasing: 1, pixelAligned: true });
      },
      select(points) {
        plotRef.current?.select(points);
      },
      canvasSize() {
        const r = canvasRef.current!.getBoundingClientRect();
        return { width: r.width, height: r.height };
      },
    }),
    [],
  );

  return <canvas ref={canvasRef} data-testid="embedding-canvas" style={{ width: '100%', height, display: 'block', touchAction: 'none' }} />;
});
