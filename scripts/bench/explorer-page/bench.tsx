import { useEffect, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { ArtifactClient } from '../../../apps/web/src/features/explore/data/ArtifactClient';
import type { NormalizedEmbedding } from '../../../apps/web/src/features/explore/data/decode';
import {
  EmbeddingViewer,
  type DrawTiming,
  type EmbeddingViewerHandle,
} from '../../../apps/web/src/features/explore/viewer/EmbeddingViewer';
import type { EmbeddingResult } from '../../../apps/web/src/features/explore/data/protocol';
import { HOME } from '../../../apps/web/src/features/explore/viewer/camera';
import { firstFrameOf } from '../../../apps/web/src/features/explore/viewer/firstFrame';
import { expressionRamp } from '../../../apps/web/src/features/explore/viewer/gradient';
import { colourPoints, type PointColours } from '../../../apps/web/src/features/explore/viewer/pointColours';
import {
  defaultPointSize,
  type Colouring,
} from '../../../apps/web/src/features/explore/viewer/scatterPoints';
import {
  BaseLayerCache,
  createTarget,
  pixelTransform,
  splat,
} from '../../../apps/web/src/features/explore/viewer/splat';
import { categoryColours } from '../../../apps/web/src/features/explore/viewer/palettes';
import {
  knownRenderer,
  probeInBackground,
} from '../../../apps/web/src/features/explore/viewer/rendererChoice';

const HEIGHT = 700;

/**
 * Benchmark page: the explorer's own data layer (worker + range requests) and embedding viewer
 * (renderer chosen as in the app, or forced by ?renderer=), loading as the explore page's viewer
 * panel does (embedding and the default cluster column requested at once, gene colourings through
 * the same worker and `Colouring`), with hooks the bench runner calls through `window.bench`.
 * Times are milliseconds since navigation start (performance.now()).
 */
interface BenchApi {
  /** navigation → first frame with every point drawn */
  firstPaintMs: number | null;
  /** navigation → first frame coloured by the cluster column */
  clusterPaintMs: number | null;
  /** navigation → embedding decoded and delivered by the worker */
  embeddingMs: number | null;
  /** navigation → cluster column delivered by the worker */
  clusterMs: number | null;
  frames: number;
  error: string | null;
  /** last colourByGene: ms until the worker delivered the decoded gene */
  lastFetchMs: number;
  /** last colourByGene: bytes of the gene's chunk (0 when cached) */
  lastBytes: number;
  colourByGene(gene: number): Promise<number>;
  /** dispatches a wheel event every animation frame for `ms`; resolves with frames rendered */
  wheelFor(ms: number): Promise<{ frames: number; seconds: number }>;
  /** points drawn per frame while moving (adaptive subset; 0 = all) */
  movingPoints(): number;
  /**
   * Main-thread work of one gene recolour at an unchanged camera on a 1200 × 700 target, fastest of
   * 5 (contention only adds): colours from the non-zeros + cached base layer + listed points (now),
   * and dense colours + the full two-pass splat (as before).
   */
  pageWork(gene: number): Promise<{ sparse: number; dense: number }>;
}
declare global {
  interface Window {
    bench: BenchApi;
  }
}

const base = new URLSearchParams(location.search).get('base') ?? '/artifacts/';
const client = new ArtifactClient(base, null);
probeInBackground(); // as useArtifactClient: the renderer choice while the artifacts load
let pending: { start: number; resolve: (ms: number) => void } | null = null;
let setColour: (c: Colouring) => void = () => undefined;
let positions: NormalizedEmbedding | null = null;

window.bench = {
  firstPaintMs: null,
  clusterPaintMs: null,
  embeddingMs: null,
  clusterMs: null,
  frames: 0,
  error: null,
  lastFetchMs: 0,
  lastBytes: 0,
  colourByGene: (gene) =>
    new Promise((resolve, reject) => {
      const start = performance.now();
      client.gene('normalized', gene, false).then((g) => {
        window.bench.lastFetchMs = performance.now() - start;
        window.bench.lastBytes = g.bytes;
        pending = { start, resolve };
        setColour({ kind: 'continuous', values: g.values, max: g.max, nz: g.nz });
      }, reject);
    }),
  movingPoints: () => 0,
  pageWork: async (gene) => {
    const g = await client.gene('normalized', gene, false);
    const { x, y } = positions!;
    const none = new Uint32Array(0);
    const state: PointColours = {
      colour: new Uint32Array(x.length),
      pri: new Uint8Array(x.length),
      aboveBuf: none,
      above: none,
      baseColour: null,
    };
    const ramp = expressionRamp(64);
    const target = createTarget(1200, 700);
    const tr = pixelTransform({ ...HOME, width: 1200, height: 700 }, 1200, 700);
    const size = defaultPointSize(x.length);
    const cache = new BaseLayerCache();
    const fastest = (run: () => void) => {
      let best = Infinity;
      for (let k = 0; k < 5; k += 1) {
        const t = performance.now();
        run();
        best = Math.min(best, performance.now() - t);
      }
      return best;
    };
    const sparse = fastest(() => {
      colourPoints(state, 'continuous', g.values, ramp, g.max, g.nz);
      const { colour, pri, above, baseColour } = state;
      splat(target, { x, y, colour, pri, sel: null, above, baseColour }, tr, size, cache);
    });
    const dense = fastest(() => {
      colourPoints(state, 'continuous', g.values, ramp, g.max);
      splat(target, { x, y, colour: state.colour, pri: state.pri, sel: null }, tr, size);
    });
    return { sparse, dense };
  },
  wheelFor: (ms) =>
    new Promise((resolve) => {
      const canvas = document.querySelector('canvas')!;
      const r = canvas.getBoundingClientRect();
      const f0 = window.bench.frames;
      const t0w = performance.now();
      let i = 0;
      const tick = () => {
        const now = performance.now();
        if (now - t0w >= ms) {
          resolve({ frames: window.bench.frames - f0, seconds: (now - t0w) / 1000 });
          return;
        }
        i += 1;
        const deltaY = Math.sin(i / 8) * 60;
        canvas.dispatchEvent(
          new WheelEvent('wheel', {
            deltaY,
            clientX: r.left + r.width / 2 + 100 * Math.cos(i / 11),
            clientY: r.top + r.height / 2,
            bubbles: true,
            cancelable: true,
          }),
        );
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    }),
};

function Bench() {
  const [emb, setEmb] = useState<EmbeddingResult | null>(null);
  const [colouring, setColouring] = useState<Colouring>({ kind: 'none' });
  const viewer = useRef<EmbeddingViewerHandle>(null);
  setColour = setColouring;
  window.bench.movingPoints = () => viewer.current?.movingPoints() ?? 0;
  useEffect(() => {
    const fail = (e: unknown) => (window.bench.error = String(e));
    const m = client.manifest();
    m.then((mf) => {
      // as ViewerPanel: the worker splats the first frame as the positions arrive
      const width = document.getElementById('root')!.getBoundingClientRect().width;
      const frame =
        knownRenderer() !== 'webgl'
          ? firstFrameOf(width, HEIGHT, mf.nCells, window.devicePixelRatio)
          : undefined;
      return client.embedding(mf.embeddings[0]!.name, frame);
    })
      .then((e) => {
        window.bench.embeddingMs = performance.now();
        positions = e;
        setEmb(e);
      })
      .catch(fail);
    m.then(() => client.obs('cluster'))
      .then((c) => {
        window.bench.clusterMs = performance.now();
        if (c.kind !== 'categorical') throw new Error('cluster column is not categorical');
        setColouring({
          kind: 'categorical',
          codes: c.codes,
          colours: categoryColours('Default', c.labels.length),
        });
      })
      .catch(fail);
  }, []);
  const onDrawn = (t: DrawTiming) => {
    const now = performance.now();
    if (t.kind === 'positions') window.bench.firstPaintMs ??= now;
    if (colouring.kind === 'categorical') window.bench.clusterPaintMs ??= now;
    if (pending && colouring.kind === 'continuous') {
      const p = pending;
      pending = null;
      p.resolve(now - p.start);
    }
  };
  if (!emb) return null;
  return (
    <EmbeddingViewer
      ref={viewer}
      x={emb.x}
      y={emb.y}
      colouring={colouring}
      firstFrame={emb.firstFrame}
      mouseMode="panZoom"
      height={HEIGHT}
      onDrawn={onDrawn}
      onFrame={() => (window.bench.frames += 1)}
    />
  );
}

createRoot(document.getElementById('root')!).render(<Bench />);
