import { useMemo } from 'react';
import { palette } from '../viewer/palettes';
import { splitByGroup } from '../stats/groupStats';
import { EChart } from './EChart';
import { violinOption } from './violinOption';

const COLOURS = [...palette('Default')];

interface Props {
  groups: string[];
  /** One value per cell, grouped by `codes` (index into `groups`). */
  values: ArrayLike<number>;
  codes: ArrayLike<number>;
  yName: string;
  fileName: string;
  height?: number;
}

/**
 * A violin per group of one per-cell column. The split, densities and box statistics (sorts of
 * every cell's value) are computed when the inputs change, not on every render of the tab: at 2M
 * cells they take seconds, and a tab re-renders on each keystroke of its gene search.
 */
export function ViolinChart({ groups, values, codes, yName, fileName, height = 300 }: Props) {
  const option = useMemo(
    () => violinOption(groups, splitByGroup(values, codes, groups.length), COLOURS, yName),
    [groups, values, codes, yName],
  );
  return <EChart option={option} fileName={fileName} height={height} />;
}
