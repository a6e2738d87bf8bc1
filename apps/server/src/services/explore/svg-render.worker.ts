// Worker thread of the svg-to-tiff conversion (issue 12): loaded by Node directly (erasable
// types only, no relative imports), so the SVG parse and raster never run on the API's event loop.
import { parentPort } from 'node:worker_threads';
import sharp from 'sharp';

interface Job {
  id: number;
  svg: string;
  minHeight: number;
  maxPixels: number;
}

// One render at a time inside this worker; librsvg itself is single-threaded per image.
sharp.concurrency(1);

parentPort?.on('message', (job: Job) => {
  void render(job).then(
    (tiff) => parentPort?.postMessage({ id: job.id, ok: true, tiff }),
    (e: unknown) => {
      const err = e as { code?: string; params?: Record<string, unknown>; message?: string };
      parentPort?.postMessage({
        id: job.id,
        ok: false,
        code: err.code ?? 'invalid',
        params: err.params ?? {},
        message: String(err.message ?? e),
      });
    },
  );
});

async function render(job: Job): Promise<Uint8Array> {
  const input = Buffer.from(job.svg, 'utf8');
  const meta = await sharp(input, { limitInputPixels: job.maxPixels }).metadata();
  const w = meta.width ?? 0;
  const h = meta.height ?? 0;
  if (!h || !w) throw Object.assign(new Error('the SVG has no size'), { code: 'invalid' });
  const density = Math.min(Math.max(72, (72 * job.minHeight) / h), 100_000);
  const height = Math.max(job.minHeight, Math.round((h * density) / 72));
  const width = Math.round((w * height) / h);
  // Checked before anything is rasterized: the rendered size at this density.
  const rendered = ((w * density) / 72) * ((h * density) / 72);
  const pixels = Math.max(width * height, rendered);
  if (!Number.isFinite(pixels) || pixels > job.maxPixels) {
    throw Object.assign(new Error('too large'), {
      code: 'tooLarge',
      params: { pixels: Math.round(pixels), max: job.maxPixels },
    });
  }
  const out = await sharp(input, { density, limitInputPixels: job.maxPixels })
    .resize({ height })
    .flatten({ background: '#ffffff' })
    .tiff({ compression: 'lzw' })
    .toBuffer();
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}
