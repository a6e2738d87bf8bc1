import type { TaskTable } from '@cellcloud/contracts/tasks/csv';
import { stem, type TaskFigures } from '../_shared/figures/export';
import type { FigureOption } from '../_shared/figures/option';

/** A numeric column of a result table (non-numbers NaN), undefined when absent. */
function numbers(tb: TaskTable, name: string): number[] | undefined {
  const j = tb.columns.indexOf(name);
  return j < 0 ? undefined : tb.rows.map((r) => (typeof r[j] === 'number' ? r[j] : NaN));
}

/**
 * The cells on the two DDRTree components coloured by pseudotime (tables/cells.csv; at most about
 * 20,000 points, every n-th cell).
 */
export function pseudotimeOption(x: number[], y: number[], pt: number[]): FigureOption {
  const step = Math.max(1, Math.ceil(x.length / 20_000));
  const data = x.flatMap((v, i) => (i % step ? [] : [[v, y[i]!, pt[i]!]]));
  const max = pt.reduce((m, v) => (Number.isFinite(v) && v > m ? v : m), 1);
  return {
    grid: { left: 70, right: 140, top: 60, bottom: 60 },
    xAxis: { type: 'value', name: 'Component 1', nameLocation: 'middle', nameGap: 30, scale: true },
    yAxis: { type: 'value', name: 'Component 2', nameLocation: 'middle', nameGap: 40, scale: true },
    visualMap: {
      dimension: 2,
      min: 0,
      max,
      right: 10,
      top: 'middle',
      text: ['Pseudotime', ''],
      inRange: { color: ['#440154', '#21918c', '#fde725'] },
    },
    series: [{ type: 'scatter', symbolSize: 3, data }],
  };
}

/** Export: the trajectory coloured by pseudotime. */
export const figures: TaskFigures = {
  export(k, _d, t) {
    const tb = k.tables.cells;
    const x = tb && numbers(tb, 'dim_1');
    const y = tb && numbers(tb, 'dim_2');
    const pt = tb && numbers(tb, 'Pseudotime');
    if (!x || !y || !pt) return [];
    return [
      {
        name: `tasks/${stem(k.name)}_pseudotime`,
        title: t('figures.pseudotime'),
        option: pseudotimeOption(x, y, pt),
        width: 820,
        height: 680,
      },
    ];
  },
};
