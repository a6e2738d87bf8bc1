import { barOption } from '../_shared/figures/charts';
import { stem, type TaskFigures } from '../_shared/figures/export';
import { numberColumn, textColumn, topBy } from '../_shared/figures/table';

/** Export: −log10(p.adjust) bars of the 15 first terms of up to four ORA tables. */
export const figures: TaskFigures = {
  export(k, _d, t) {
    return Object.entries(k.tables)
      .filter(([n, tb]) => n.startsWith('ora_') && tb.rows.length)
      .slice(0, 4)
      .map(([n, tb]) => {
        const idx = topBy(tb, 'p.adjust', 15);
        const desc = textColumn(tb, 'Description')!;
        const p = numberColumn(tb, 'p.adjust')!;
        return {
          name: `tasks/${stem(k.name)}_${stem(n)}`,
          title: t('figures.enrichment', { name: n.slice(4) }),
          option: barOption(
            idx.map((i) => desc[i]!),
            idx.map((i) => -Math.log10(Math.max(p[i]!, 1e-300))),
            t('figures.negLog10Padj'),
            () => '#4e79a7',
          ),
          width: 1000,
          height: Math.max(400, 140 + idx.length * 26),
        };
      });
  },
};
