import { barOption } from '../_shared/figures/charts';
import { stem, type TaskFigures } from '../_shared/figures/export';
import { numberColumn, textColumn, topBy } from '../_shared/figures/table';

/** Export: NES bars of the 20 first sets by p.adjust (positive red, negative blue). */
export const figures: TaskFigures = {
  export(k, _d, t) {
    const tb = k.tables.gsea;
    if (!tb?.rows.length) return [];
    const idx = topBy(tb, 'p.adjust', 20);
    const desc = textColumn(tb, 'Description')!;
    const nes = numberColumn(tb, 'NES')!;
    return [
      {
        name: `tasks/${stem(k.name)}_nes`,
        title: t('figures.nes'),
        option: barOption(
          idx.map((i) => desc[i]!),
          idx.map((i) => nes[i]!),
          'NES',
          (v) => (v >= 0 ? '#d62728' : '#1f77b4'),
        ),
        width: 1000,
        height: Math.max(400, 140 + idx.length * 26),
      },
    ];
  },
};
