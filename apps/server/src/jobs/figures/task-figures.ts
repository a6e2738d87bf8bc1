import type { DegRow } from '@cellcloud/contracts/artifacts';
import type { FigureData } from './data';
import type { Locale } from '@cellcloud/contracts/locale';
import { messageLabel, TASK_FIGURES, volcanoOption } from '@cellcloud/tasks/figures';
import { TASK_MESSAGES } from '@cellcloud/tasks/messages';
import { figure, stem } from './charts';
import type { Label } from './labels';
import type { Figure } from './render';

/*
 * One key figure per completed task where its tables support it (issue 21): volcano for DE
 * (saved explorer comparisons and deg-groups), enrichment bars, GSEA NES bars, the interaction
 * count heat map, the RSS heat map of regulons, CNV / ITH scores by group, cell scores by cluster,
 * the Monocle 2 trajectory by pseudotime. Each task draws its own (its folder's `figures.ts` in
 * packages/tasks: the same option builders as its web view, labels from its messages).
 */
/** Volcano of a saved explorer DE comparison (the deg-groups task draws its own, the same option). */
export function volcano(
  name: string,
  stemName: string,
  rows: Pick<DegRow, 'gene' | 'log2fc' | 'padj'>[],
  t: Label,
): Figure {
  const labels = {
    log2fc: t('figures.log2fc'),
    negLog10Padj: t('figures.negLog10Padj'),
    up: t('figures.up'),
    down: t('figures.down'),
    ns: t('figures.ns'),
  };
  return figure(
    `de/volcano_${stemName}`,
    t('figures.volcano', { name }),
    volcanoOption(rows, labels),
    860,
    640,
  );
}

/** The figures a task folder's `figures.ts` builds, rendered, labels in `lang`. */
function folderFigures(k: FigureData['tasks'][number], d: FigureData, lang: Locale): Figure[] | undefined {
  const own = TASK_FIGURES[k.task];
  const messages = TASK_MESSAGES[k.task];
  if (!own || !messages) return undefined;
  return own
    .export(k, d, messageLabel(messages[lang]))
    .map((f) => figure(f.name, f.title, f.option, f.width, f.height));
}

export function taskFigures(d: FigureData, t: Label, lang: Locale = 'en-US'): Figure[] {
  const out: Figure[] = [];
  for (const de of d.de) out.push(volcano(de.name, stem(de.name), de.rows, t));
  for (const k of d.tasks) out.push(...(folderFigures(k, d, lang) ?? []));
  return out;
}
