import { violinOption } from '../_shared/figures/charts';
import { stem, type TaskFigures } from '../_shared/figures/export';

/** Export: violins of the per-cell CNV score (tables/cnv_scores.csv) by cell type. */
export const figures: TaskFigures = {
  export(k, _d, t) {
    const tb = k.tables.cnv_scores;
    if (!tb?.rows.length) return [];
    const [iType, iScore] = [tb.columns.indexOf('type'), tb.columns.indexOf('CNVscore')];
    if (iType < 0 || iScore < 0) return [];
    const type = tb.rows.map((r) => (r[iType] === null || r[iType] === undefined ? '' : String(r[iType])));
    const score = tb.rows.map((r) => (typeof r[iScore] === 'number' ? r[iScore] : NaN));
    const groups = [...new Set(type)];
    const values = groups.map((g) => score.filter((_, i) => type[i] === g));
    return [
      {
        name: `tasks/${stem(k.name)}_cnv_score`,
        title: t('figures.cnv'),
        option: violinOption(groups, values, 'CNVscore', t('figures.cellType')),
        width: Math.max(700, 120 + groups.length * 70),
        height: 560,
      },
    ];
  },
};
