/** docs/product/validation.md#analysis-rules: a box plot of group averages needs at least 3 samples per group. */
export const MIN_SAMPLES_PER_GROUP = 3;

/** Column-wise proportions of a counts table counts[row][col] (each column sums to 1). */
export function columnProportions(counts: number[][]): number[][] {
  const cols = counts[0]?.length ?? 0;
  const sums = Array.from({ length: cols }, (_, j) => counts.reduce((a, r) => a + r[j]!, 0));
  return counts.map((r) => r.map((v, j) => (sums[j]! > 0 ? v / sums[j]! : 0)));
}

/** Group of each sample = the group label most of its cells carry. */
export function sampleGroups(
  sampleCodes: ArrayLike<number>,
  nSamples: number,
  groupCodes: ArrayLike<number>,
  nGroups: number,
): number[] {
  const tally = Array.from({ length: nSamples }, () => new Array<number>(nGroups).fill(0));
  for (let i = 0; i < sampleCodes.length; i += 1) tally[sampleCodes[i]!]![groupCodes[i]!]! += 1;
  return tally.map((row) => row.indexOf(Math.max(...row)));
}

export type GroupBoxes =
  | { ok: true; boxes: number[][][] /* [cellType][group] → sample proportions */ }
  | { ok: false; groupsTooSmall: string[] };

/** Sample proportions per cell type and group, or the groups with too few samples. */
export function groupProportionBoxes(
  props: number[][],
  groupOfSample: number[],
  groupLabels: string[],
  min: number = MIN_SAMPLES_PER_GROUP,
): GroupBoxes {
  const perGroup = groupLabels.map((_, g) => groupOfSample.filter((x) => x === g).length);
  const small = groupLabels.filter((_, g) => perGroup[g]! > 0 && perGroup[g]! < min);
  if (small.length > 0 || perGroup.every((n) => n === 0))
    return { ok: false, groupsTooSmall: small.length ? small : groupLabels };
  return {
    ok: true,
    boxes: props.map((row) => groupLabels.map((_, g) => row.filter((_v, s) => groupOfSample[s] === g))),
  };
}
