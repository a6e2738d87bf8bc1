import { forwardRef, useEffect, useImperativeHandle, useRef, useState } from 'react';
import { HOME, pan, screenToData, zoomAt, type Camera, type ViewState } from './camera';
import type { FirstFrameImage } from './firstFrame';
import { expressionRamp } from './gradient';
import { pointsInPolygon } from './lasso';
import type { PointRenderer, RendererKind } from './renderer';
import { createRenderer } from './createRenderer';
import { defaultPointSize, type Colouring } from './scatterPoints';
import { buildGrid, nearest, type SpatialGrid } from './spatialGrid';

export type { ViewState } from './camera';

export interface DrawTiming {
  /** 'positions' = new embedding drawn; 'colours' = same positions, new colouring */
  kind: 'positions' | 'colours';
  /** from the draw request to the frame after the data reached the GPU */
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
  /** called for every frame rendered (benchmarks count these) */
  onFrame?: () => void;
  /** the first frame of these positions, drawn as they downloaded (firstFrame.ts) */
  firstFrame?: FirstFrameImage | null;
  height?: number;
}

export interface EmbeddingViewerHandle {
  exportImage(scale: number): Promise<ImageData>;
  /** points drawn per frame while the camera moves (0 = moving frames draw no points: the CPU renderer reprojects the last full frame; the WebGL renderer draws all points of small datasets) */
  movingPoints(): number;
  select(points: number[]): void;
  canvasSize(): { width: number; height: number };
}

/** CSS height of the canvas unless the owner sets one */
export const VIEWER_HEIGHT = 560;
const RAMP = expressionRamp(64);
const PICK_PX = 6;
/** the full-detail frame follows once the camera has not moved for this long */
const PAUSE_MS = 200;
const GRID_DELAY_MS = 400;

/**
 * Scatter of one embedding, drawn by WebGL on a GPU or CPU-splatted under software WebGL (see
 * rendererChoice.ts; the canvas carries `data-renderer`): drag to pan, wheel to zoom, double-click to reset, lasso (button
 * or Shift-drag) and click selection, hover. All data stay typed arrays from the artifact worker.
 */
export const EmbeddingViewer = forwardRef<EmbeddingViewerHandle, EmbeddingViewerProps>(
  function EmbeddingViewer(props, ref) {
    const { x, y, colouring, mouseMode, height = VIEWER_HEIGHT } = props;
    const canvasRef = useRef<HTMLCanvasElement>(null);
    const renderer = useRef<PointRenderer | null>(null);
    const [rendererKind, setRendererKind] = useState<RendererKind | null>(null);
    const lastMovingFrame = useRef(0);
    const camera = useRef<Camera>(HOME);
    const frame = useRef<number | null>(null);
    const grid = useRef<SpatialGrid | null>(null);
    const drawnPositions = useRef<Float32Array | null>(null);
    const pending = useRef<DrawTiming['kind'] | null>(null);
    const pendingStart = useRef(0);
    const cb = useRef(props);
    cb.current = props;
    const [lasso, setLasso] = useState<Array<[number, number]> | null>(null);
    const interacting = useRef<ReturnType<typeof setTimeout> | null>(null);

    const view = (): ViewState => {
      const r = canvasRef.current!.getBoundingClientRect();
      return { ...camera.current, width: Math.max(1, r.width), height: Math.max(1, r.height) };
    };
    const pointSize = () => defaultPointSize(cb.current.x.length) * window.devicePixelRatio;

    /** Renders now (data changed: no need to wait for the next animation frame). */
    const draw = () => {
      if (frame.current !== null) cancelAnimationFrame(frame.current);
      frame.current = null;
      const canvas = canvasRef.current;
      const r = renderer.current;
      if (!canvas || !r) return;
      const v = view();
      const w = Math.round(v.width * window.devicePixelRatio);
      const h = Math.round(v.height * window.devicePixelRatio);
      if (canvas.width !== w || canvas.height !== h) {
        canvas.width = w;
        canvas.height = h;
      }
      const moving = interacting.current !== null;
      if (moving) {
        const now = performance.now();
        if (lastMovingFrame.current > 0 && now - lastMovingFrame.current < 1000)
          r.adaptMoving(now - lastMovingFrame.current);
        lastMovingFrame.current = now;
      } else lastMovingFrame.current = 0;
      r.render(v, pointSize(), moving);
      cb.current.onFrame?.();
      cb.current.onView?.(v);
      if (pending.current) {
        const kind = pending.current;
        pending.current = null;
        // the next frame starts after this one has been presented
        requestAnimationFrame(() =>
          cb.current.onDrawn?.({ kind, ms: performance.now() - pendingStart.current }),
        );
      }
    };
    const schedule = () => {
      if (frame.current !== null) return;
      frame.current = requestAnimationFrame(draw);
    };

    /** Camera moved: a cheap moving frame now (CPU: last full frame reprojected; WebGL: random subset), full detail once the motion pauses. */
    const moved = () => {
      if (interacting.current !== null) clearTimeout(interacting.current);
      interacting.current = setTimeout(() => {
        interacting.current = null;
        schedule();
      }, PAUSE_MS);
      schedule();
    };

    useEffect(() => {
      const canvas = canvasRef.current!;
      renderer.current = createRenderer(canvas);
      setRendererKind(renderer.current.kind);
      const ro = new ResizeObserver(schedule);
      ro.observe(canvas);
      const onWheel = (e: WheelEvent) => {
        e.preventDefault();
        const r = canvas.getBoundingClientRect();
        camera.current = zoomAt(view(), e.clientX - r.left, e.clientY - r.top, Math.exp(-e.deltaY * 0.0015));
        moved();
      };
      canvas.addEventListener('wheel', onWheel, { passive: false });
      return () => {
        ro.disconnect();
        canvas.removeEventListener('wheel', onWheel);
        if (frame.current !== null) cancelAnimationFrame(frame.current);
        if (interacting.current !== null) clearTimeout(interacting.current);
        renderer.current?.destroy();
        renderer.current = null;
        drawnPositions.current = null;
      };
      // one renderer per mounted canvas; schedule/view only read refs
    }, []);

    useEffect(() => {
      const r = renderer.current!;
      pendingStart.current = performance.now();
      const newPositions = drawnPositions.current !== x;
      if (newPositions) {
        r.setPositions(x, y, cb.current.firstFrame);
        drawnPositions.current = x;
        camera.current = HOME;
        grid.current = null;
        // hover/click picking index, built after the first frame is on screen (or on the first pick)
        setTimeout(() => {
          if (drawnPositions.current === x && !grid.current) grid.current = buildGrid(x, y);
        }, GRID_DELAY_MS);
      }
      if (colouring.kind === 'categorical') r.setColours('categorical', colouring.codes, colouring.colours);
      else if (colouring.kind === 'continuous')
        r.setColours('continuous', colouring.values, RAMP, colouring.max, colouring.nz ?? null);
      else r.setColours('none', null, []);
      pending.current = newPositions ? 'positions' : 'colours';
      if (interacting.current === null) draw();
      else schedule();
    }, [x, y, colouring]);

    const selectPoints = (points: number[]) => {
      const r = renderer.current;
      if (!r) return;
      if (points.length === 0) r.setSelection(null);
      else {
        const mask = new Uint8Array(x.length);
        for (const i of points) mask[i] = 1;
        r.setSelection(mask);
      }
      cb.current.onSelect?.(points);
      schedule();
    };

    const drag = useRef<{
      x0: number;
      y0: number;
      last: [number, number];
      lasso: boolean;
      moved: boolean;
    } | null>(null);
    const local = (e: React.PointerEvent): [number, number] => {
      const r = canvasRef.current!.getBoundingClientRect();
      return [e.clientX - r.left, e.clientY - r.top];
    };
    const pick = (px: number, py: number): number => {
      grid.current ??= buildGrid(x, y);
      const v = view();
      const [dx, dy] = screenToData(v, px, py);
      const radius = PICK_PX / (Math.min(v.width, v.height) / 2) / v.scale;
      return nearest(grid.current, x, y, dx, dy, radius);
    };

    const onPointerDown = (e: React.PointerEvent) => {
      const p = local(e);
      canvasRef.current!.setPointerCapture(e.pointerId);
      const isLasso = mouseMode === 'lasso' || e.shiftKey;
      drag.current = { x0: p[0], y0: p[1], last: p, lasso: isLasso, moved: false };
      if (isLasso) setLasso([p]);
    };
    const onPointerMove = (e: React.PointerEvent) => {
      const p = local(e);
      const d = drag.current;
      if (!d) {
        const i = pick(p[0], p[1]);
        cb.current.onHover?.(i >= 0 ? { index: i, px: p[0], py: p[1] } : null);
        return;
      }
      if (Math.hypot(p[0] - d.x0, p[1] - d.y0) > 3) d.moved = true;
      if (d.lasso) {
        if (Math.hypot(p[0] - d.last[0], p[1] - d.last[1]) >= 3) {
          d.last = p;
          setLasso((l) => (l ? [...l, p] : [p]));
        }
      } else {
        camera.current = pan(view(), p[0] - d.last[0], p[1] - d.last[1]);
        d.last = p;
        moved();
      }
    };
    const onPointerUp = (e: React.PointerEvent) => {
      const d = drag.current;
      drag.current = null;
      if (!d) return;
      const p = local(e);
      if (!d.moved) {
        const i = pick(p[0], p[1]);
        selectPoints(i >= 0 ? [i] : []);
      } else if (d.lasso && lasso) {
        const v = view();
        selectPoints(
          pointsInPolygon(
            x,
            y,
            [...lasso, p].map(([px, py]) => screenToData(v, px, py)),
          ),
        );
      }
      setLasso(null);
    };

    useImperativeHandle(
      ref,
      () => ({
        async exportImage(scale) {
          const r = renderer.current;
          if (!r) throw new Error('viewer not ready');
          return r.readImage(view(), pointSize(), scale);
        },
        select: selectPoints,
        movingPoints: () => renderer.current?.movingPoints() ?? 0,
        canvasSize() {
          const v = view();
          return { width: v.width, height: v.height };
        },
      }),
      [x, y],
    );

    return (
      <div style={{ position: 'relative' }}>
        <canvas
          ref={canvasRef}
          data-testid="embedding-canvas"
          data-renderer={rendererKind ?? undefined}
          style={{
            width: '100%',
            height,
            display: 'block',
            touchAction: 'none',
            cursor: mouseMode === 'lasso' ? 'crosshair' : 'grab',
          }}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerLeave={() => cb.current.onHover?.(null)}
          onDoubleClick={() => {
            camera.current = HOME;
            schedule();
          }}
        />
        {lasso && lasso.length > 1 && (
          <svg style={{ position: 'absolute', inset: 0, width: '100%', height, pointerEvents: 'none' }}>
            <polygon
              points={lasso.map((q) => q.join(',')).join(' ')}
              fill="rgba(22,119,255,0.08)"
              stroke="#1677ff"
              strokeWidth={1.5}
            />
          </svg>
        )}
      </div>
    );
  },
);
