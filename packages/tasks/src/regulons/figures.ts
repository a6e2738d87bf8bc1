import { heatmapOption } from '../_shared/figures/charts';
import { stem, type TaskFigures } from '../_shared/figures/export';

/** Export: the RSS heat map (tables/rss.csv) of each cell type's five most specific regulons (≤ 40). */
export const figures: TaskFigures = {
  export(k, _d, t) {
    const tb = k.tables.rss;
    if (!tb?.rows.length) return [];
    const iType = tb.columns.indexOf('cell_type');
    if (iType < 0) return [];
    const types = tb.rows.map((r) => (r[iType] === null || r[iType] === undefined ? '' : String(r[iType])));
    const regs = tb.columns.slice(1);
    const chosen = new Set<number>();
    for (const r of tb.rows) {
      const order = regs.map((_, j) => j).sort((a, b) => Number(r[b + 1]) - Number(r[a + 1]));
      for (const j of order.slice(0, 5)) if (chosen.size < 40) chosen.add(j);
    }
    const cols = [...chosen];
    const cells = tb.rows.map((r) => cols.map((j) => Number(r[j + 1])));
    return [
      {
        name: `tasks/${stem(k.name)}_rss`,
        title: t('figures.rss'),
        option: heatmapOption(
          types,
          cols.map((j) => regs[j]!),
          cells,
          '',
          t('figures.cellType'),
        ),
        width: 300 + cols.length * 24,
        height: 300 + types.length * 26,
      },
    ];
  },
};
