import { violinOption } from '../_shared/figures/charts';
import { stem, type TaskFigures } from '../_shared/figures/export';
import type { FigureOption } from '../_shared/figures/option';

/**
 * Violins of a per-cell score by the groups of a level (groups without cells left out): the
 * result view's chart and the exported figure are this one option.
 */
export function scoreViolinOption(
  labels: readonly string[],
  codes: ArrayLike<number>,
  scores: ArrayLike<number>,
  scoreKey: string,
  level: string,
): FigureOption {
  const per = labels.map(() => [] as number[]);
  for (let c = 0; c < codes.length; c++) per[codes[c]!]?.push(scores[c]!);
  const keep = labels.map((_, i) => i).filter((i) => per[i]!.length > 0);
  return violinOption(
    keep.map((i) => labels[i]!),
    keep.map((i) => per[i]!),
    scoreKey,
    level,
  );
}

/** Export: the first four scores by the result's first level (`cluster`). */
export const figures: TaskFigures = {
  export(k, d, t) {
    const level = d.levels[0];
    if (!level) return [];
    return k.numeric.slice(0, 4).map((col) => ({
      name: `tasks/${stem(k.name)}_${stem(col.key)}_by_${stem(level.key)}`,
      title: t('figures.scoreBy', { score: col.key, level: level.key }),
      option: scoreViolinOption(level.labels, level.codes, col.values, col.key, level.key),
      width: Math.max(700, 120 + level.labels.length * 60),
      height: 560,
    }));
  },
};
