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

/** How many of the observed cells' lowest arms the summary lists. */
const LOWEST_SHOWN = 5;

/**
 * The arms with the lowest mean CNV value over all observed (non-reference) cells, from the
 * per-type rows of arm_groups weighted by their cell counts: the losses a tumour carries
 * (e.g. 1p and 19q of an oligodendroglioma), lowest first.
 */
export function lowestObservedArms(
  table: { columns: string[]; rows: (string | number | boolean | null)[][] },
  n = LOWEST_SHOWN,
): { arm: string; mean: number }[] {
  const ci = (c: string) => table.columns.indexOf(c);
  const [iK, iR, iA, iM, iC] = [ci('kind'), ci('reference'), ci('arm'), ci('mean'), ci('cells')];
  const sums = new Map<string, { s: number; w: number }>();
  for (const r of table.rows) {
    if (r[iK] !== 'type' || r[iR] === true || r[iR] === 'true') continue;
    const w = Number(r[iC]) || 0;
    const a = String(r[iA]);
    const e = sums.get(a) ?? { s: 0, w: 0 };
    e.s += w * Number(r[iM]);
    e.w += w;
    sums.set(a, e);
  }
  return [...sums]
    .filter(([, e]) => e.w > 0)
    .map(([arm, e]) => ({ arm, mean: e.s / e.w }))
    .sort((a, b) => a.mean - b.mean)
    .slice(0, n);
}
