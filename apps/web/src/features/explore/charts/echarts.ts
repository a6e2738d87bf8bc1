import * as echarts from 'echarts/core';
import { BarChart, BoxplotChart, CustomChart, HeatmapChart, ScatterChart } from 'echarts/charts';
import type { BarSeriesOption, BoxplotSeriesOption, CustomSeriesOption, HeatmapSeriesOption, ScatterSeriesOption } from 'echarts/charts';
import { DataZoomComponent, GridComponent, LegendComponent, TitleComponent, TooltipComponent, VisualMapComponent } from 'echarts/components';
import type {
  DataZoomComponentOption,
  GridComponentOption,
  LegendComponentOption,
  TitleComponentOption,
  TooltipComponentOption,
  VisualMapComponentOption,
} from 'echarts/components';
import { CanvasRenderer, SVGRenderer } from 'echarts/renderers';

/** Only the ECharts modules the explore tabs use (keeps the bundle small). */
echarts.use([
  BarChart,
  BoxplotChart,
  CustomChart,
  HeatmapChart,
  ScatterChart,
  DataZoomComponent,
  GridComponent,
  LegendComponent,
  TitleComponent,
  TooltipComponent,
  VisualMapComponent,
  CanvasRenderer,
  SVGRenderer,
]);

export type ChartOption = echarts.ComposeOption<
  | BarSeriesOption
  | BoxplotSeriesOption
  | CustomSeriesOption
  | HeatmapSeriesOption
  | ScatterSeriesOption
  | DataZoomComponentOption
  | GridComponentOption
  | LegendComponentOption
  | TitleComponentOption
  | TooltipComponentOption
  | VisualMapComponentOption
>;

export { echarts };
