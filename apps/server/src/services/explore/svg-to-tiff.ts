import sharp from 'sharp';
import { SVG_TIFF_MIN_HEIGHT } from '@cellcloud/contracts/explore-deg';
import { AppError } from '../../http/errors';
import './deg-messages';

/**
 * SVG → TIFF (SPEC §7 image conversion) with sharp/librsvg: rendered at a density that makes the
 * image at least SVG_TIFF_MIN_HEIGHT px high (SPEC export size), white background, LZW-compressed.
 */
export async function svgToTiff(svg: string): Promise<Buffer> {
  const input = Buffer.from(svg, 'utf8');
  try {
    const meta = await sharp(input).metadata();
    const h = meta.height ?? 0;
    if (!h) throw new Error('the SVG has no height');
    const density = Math.min(Math.max(72, (72 * SVG_TIFF_MIN_HEIGHT) / h), 100_000);
    const height = Math.max(SVG_TIFF_MIN_HEIGHT, Math.round((h * density) / 72));
    return await sharp(input, { density, limitInputPixels: 2 ** 31 })
      .resize({ height })
      .flatten({ background: '#ffffff' })
      .tiff({ compression: 'lzw' })
      .toBuffer();
  } catch (e) {
    throw new AppError('VALIDATION_FAILED', { detail: e instanceof Error ? e.message : String(e) }, 'explore.tiff.invalidSvg');
  }
}
