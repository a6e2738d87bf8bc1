import type { Locale } from '@cellcloud/contracts';
import type { ZipWriter } from '@cellcloud/formats/write-zip';
import type { FigureData } from './figures/data';
import { labelsOf } from './figures/labels';
import { PNG_SCALE, svgToPng, type Figure } from './figures/render';
import { RASTER_MIN_CELLS, resultFigures } from './figures/result-figures';
import { taskFigures } from './figures/task-figures';

/**
 * The `figures` download (issue 21): the result's figures rendered on the server — embeddings by
 * every level, QC violins per sample, the top-markers dot plot, composition by sample, and a key
 * figure per saved DE comparison and completed task — each as `<name>.svg` and `<name>.png`
 * (PNG_SCALE × the SVG size), labels in `lang`, plus README.txt listing them with their sizes.
 */
export async function allFigures(d: FigureData, lang: Locale): Promise<Figure[]> {
  const t = labelsOf(lang);
  return [...(await resultFigures(d, t)), ...taskFigures(d, t, lang)];
}

const enc = new TextEncoder();

export async function writeFigures(
  zip: ZipWriter,
  d: FigureData,
  meta: { lang: Locale; resultName: string },
  progress: (f: number) => void = () => {},
): Promise<Figure[]> {
  const t = labelsOf(meta.lang);
  const figures = await allFigures(d, meta.lang);
  const lines: string[] = [];
  for (const [i, f] of figures.entries()) {
    zip.add(`${f.name}.svg`, [enc.encode(f.svg)]);
    zip.add(`${f.name}.png`, [await svgToPng(f.svg)]);
    lines.push(
      `${f.name}.svg / .png\t${f.width}×${f.height} / ${f.width * PNG_SCALE}×${f.height * PNG_SCALE}\t${f.title}`,
    );
    progress((i + 1) / figures.length);
  }
  const readme = [
    t('readme.figures', {
      name: meta.resultName,
      raster: RASTER_MIN_CELLS.toLocaleString('en-US'),
      scale: PNG_SCALE,
    }),
    '',
    ...lines,
    '',
  ].join('\n');
  zip.add('README.txt', [enc.encode(readme)]);
  return figures;
}
