import type { Figure, FigureOption } from './render';
import { renderSvg } from './render';

/**
 * Small option pieces of the server's figures. The chart builders (violins, bars, heat maps) are
 * the task folders' shared ones (packages/tasks/src/_shared/figures), which the web views use too.
 */
export { barOption, colours, heatmapOption, stem, thin, violinOption } from '@cellcloud/tasks/figures';

export const titleOf = (text: string) => ({ text, left: 'center', top: 8, textStyle: { fontSize: 16 } });

export function figure(
  name: string,
  title: string,
  option: FigureOption,
  width: number,
  height: number,
): Figure {
  return { name, title, width, height, svg: renderSvg({ title: titleOf(title), ...option }, width, height) };
}
