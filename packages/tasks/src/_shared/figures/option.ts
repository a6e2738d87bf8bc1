import type { EChartsOption } from 'echarts';

/** An ECharts option as the figure builders return it (web charts and server SVG alike). */
export type FigureOption = EChartsOption;
