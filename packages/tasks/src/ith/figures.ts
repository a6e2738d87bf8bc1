import { barOption } from '../_shared/figures/charts';
import { stem, type TaskFigures } from '../_shared/figures/export';

/** Export: the mean ITH score of each identity (tables/ITH_score_stat.csv). */
export const figures: TaskFigures = {
  export(k, _d, t) {
    const tb = k.tables.ITH_score_stat;
    if (!tb?.rows.length) return [];
    const [iType, iMean] = [tb.columns.indexOf('type'), tb.columns.indexOf('mean')];
    if (iType < 0 || iMean < 0) return [];
    const type = tb.rows.map((r) => (r[iType] === null || r[iType] === undefined ? '' : String(r[iType])));
    const mean = tb.rows.map((r) => (typeof r[iMean] === 'number' ? r[iMean] : NaN));
    return [
      {
        name: `tasks/${stem(k.name)}_ith`,
        title: t('figures.ith'),
        option: barOption(type, mean, 'ITH', () => '#59a14f'),
        width: 900,
        height: Math.max(400, 140 + type.length * 26),
      },
    ];
  },
};
