import { Alert } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { SubsetView } from '@cellcloud/contracts/explore';
import { levelLabelKey } from '../annotationLevels';

/**
 * A task run on a sample of a large result's cells (docs/engine-scaling.md "Downstream tasks on
 * large results"): the worker writes the sample's description as the task's data file
 * `cell-sample` (data/cell-sample.json). Its per-cell outputs are NA / NaN outside the sample, so
 * the result view says so above the results, in the reader's language. Runs without the file
 * (older runs, smaller results, vdj) show nothing.
 */

/** The data file's name in the task's outputs (FileTaskSink.data('cell-sample', …)). */
export const CELL_SAMPLE_FILE = 'cell-sample';

export interface CellSampleInfo {
  nCells: number;
  sampledCells: number;
  stratifiedBy: string | null;
  strata: number;
  /** Cells each group kept first (the rest shared in proportion to group size), as the worker wrote it. */
  perGroupFloor?: number;
}

const count = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : undefined);

/** The description the worker wrote, or null when it is not one (missing fields, not a sample). */
export function parseCellSample(json: unknown): CellSampleInfo | null {
  if (!json || typeof json !== 'object') return null;
  const o = json as Record<string, unknown>;
  const nCells = count(o.nCells);
  const sampledCells = count(o.sampledCells);
  if (nCells === undefined || sampledCells === undefined || sampledCells >= nCells) return null;
  return {
    nCells,
    sampledCells,
    stratifiedBy: typeof o.stratifiedBy === 'string' && o.stratifiedBy ? o.stratifiedBy : null,
    strata: count(o.strata) ?? 1,
    perGroupFloor: count(o.perGroupFloor),
  };
}

/** A grouping's name for the reader: a subset's name, a known level's translation, else the column. */
export function groupingName(key: string, t: TFunction, subsets: SubsetView[]): string {
  if (key.startsWith('subset:')) return subsets.find((s) => `subset:${s.id}` === key)?.name ?? key;
  const k = levelLabelKey(key);
  return k ? t(k) : key;
}

/** The notice, one paragraph in the reader's language (`t` of the tasks namespace, explore loaded). */
export function cellSampleText(
  info: CellSampleInfo,
  t: TFunction,
  locale: string,
  subsets: SubsetView[],
): string {
  const number = new Intl.NumberFormat(locale);
  const cells = { sampled: number.format(info.sampledCells), cells: number.format(info.nCells) };
  if (info.stratifiedBy && info.strata > 1 && info.perGroupFloor !== undefined) {
    return t('view.sample.stratified', {
      ...cells,
      floor: number.format(info.perGroupFloor),
      groups: number.format(info.strata),
      level: groupingName(info.stratifiedBy, t, subsets),
    });
  }
  return t('view.sample.plain', cells);
}

/** The notice above a task's results (nothing when the run saw every cell). */
export function CellSampleNotice({ info, subsets }: { info: CellSampleInfo | null; subsets: SubsetView[] }) {
  const { t, i18n } = useTranslation(['tasks', 'explore']);
  if (!info) return null;
  return (
    <Alert
      type="info"
      showIcon
      data-testid="task-cell-sample"
      title={t('view.sample.title')}
      description={cellSampleText(info, t, i18n.language, subsets)}
    />
  );
}
