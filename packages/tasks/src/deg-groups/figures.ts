import { stem, type FigureLabel, type TaskFigures } from '../_shared/figures/export';
import { volcanoOption, type VolcanoLabels } from '../_shared/figures/volcano';

/** The volcano's labels from the task's messages (`figures.*`). */
export const volcanoLabels = (t: FigureLabel): VolcanoLabels => ({
  log2fc: t('figures.log2fc'),
  negLog10Padj: t('figures.negLog10Padj'),
  up: t('figures.up'),
  down: t('figures.down'),
  ns: t('figures.ns'),
});

/** Export: the volcano of group 1 against group 2 (the view's first direction). */
export const figures: TaskFigures = {
  export(k, _d, t) {
    const tb = k.tables.group1;
    if (!tb) return [];
    const col = (name: string) => tb.columns.indexOf(name);
    const [fc, padj] = [col('log2fc'), col('padj')];
    const num = (v: unknown) => (typeof v === 'number' ? v : NaN);
    const rows = tb.rows.map((r) => ({ log2fc: num(r[fc]), padj: num(r[padj]) }));
    return [
      {
        name: `de/volcano_${stem(k.name)}`,
        title: t('figures.volcano', { name: k.name }),
        option: volcanoOption(rows, volcanoLabels(t)),
        width: 860,
        height: 640,
      },
    ];
  },
};
