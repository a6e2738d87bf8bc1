import { Worker } from 'node:worker_threads';
import { SVG_TIFF_MIN_HEIGHT } from '@cellcloud/contracts/explore-deg';
import { AppError } from '../../errors';
import '../../i18n/security';
import './deg-messages';

/**
 * SVG → TIFF (docs/product/api.md#image-conversion image conversion) with sharp/librsvg: rendered at a density that makes the
 * image at least SVG_TIFF_MIN_HEIGHT px high (SPEC export size), white background, LZW-compressed.
 *
 * Limits (issue 12: 8 concurrent requests with a 170-byte SVG took the API from 1.3 to 4.3 GB):
 * the rendered pixel area is capped (TIFF_MAX_PIXELS, checked before rasterizing), conversions run
 * in worker threads (never on the event loop), at most TIFF_MAX_CONCURRENT at once with a short
 * wait queue (beyond it 429 "busy"); the route adds a per-user rate limit.
 */
export const TIFF_MAX_PIXELS = 80_000_000;
export const TIFF_MAX_CONCURRENT = 2;
const TIFF_MAX_WAITING = 4;

let running = 0;
let maxConcurrent = 0;
const waiting: (() => void)[] = [];
const workers: Worker[] = [];
let seq = 0;

/** Figures of the conversions of this process (tests). */
export function tiffConversionStats() {
  return { running, maxConcurrent, inWorker: true };
}

export async function svgToTiff(svg: string): Promise<Buffer> {
  if (running >= TIFF_MAX_CONCURRENT) {
    if (waiting.length >= TIFF_MAX_WAITING) throw new AppError('RATE_LIMITED', { seconds: 5 }, 'tiff.busy');
    await new Promise<void>((resolve) => waiting.push(resolve));
  }
  running++;
  maxConcurrent = Math.max(maxConcurrent, running);
  const worker = workers.pop() ?? spawn();
  try {
    return await convertIn(worker, svg);
  } finally {
    running--;
    if (workers.length < TIFF_MAX_CONCURRENT && worker.threadId >= 0) workers.push(worker);
    else void worker.terminate();
    waiting.shift()?.();
  }
}

function spawn(): Worker {
  const w = new Worker(new URL('./svg-render.worker.ts', import.meta.url));
  w.unref();
  w.on('error', () => {
    const i = workers.indexOf(w);
    if (i >= 0) workers.splice(i, 1);
  });
  return w;
}

function convertIn(worker: Worker, svg: string): Promise<Buffer> {
  const id = ++seq;
  return new Promise((resolve, reject) => {
    const onMessage = (m: {
      id: number;
      ok: boolean;
      tiff?: Uint8Array;
      code?: string;
      params?: Record<string, unknown>;
      message?: string;
    }) => {
      if (m.id !== id) return;
      cleanup();
      if (m.ok && m.tiff) return resolve(Buffer.from(m.tiff.buffer, m.tiff.byteOffset, m.tiff.byteLength));
      if (m.code === 'tooLarge')
        return reject(new AppError('VALIDATION_FAILED', m.params ?? {}, 'tiff.tooLarge'));
      reject(new AppError('VALIDATION_FAILED', { detail: m.message ?? '' }, 'explore.tiff.invalidSvg'));
    };
    const onError = (e: Error) => {
      cleanup();
      reject(new AppError('VALIDATION_FAILED', { detail: e.message }, 'explore.tiff.invalidSvg'));
    };
    const cleanup = () => {
      worker.off('message', onMessage);
      worker.off('error', onError);
    };
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.postMessage({ id, svg, minHeight: SVG_TIFF_MIN_HEIGHT, maxPixels: TIFF_MAX_PIXELS });
  });
}
