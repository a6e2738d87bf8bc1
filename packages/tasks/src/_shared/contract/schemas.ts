import { z } from 'zod';

const label = z.string().min(1).max(500);

/** A list of labels; the CLI form "a,b" (one string) is split at commas. */
export const labelList = (min: number, max: number) =>
  z.preprocess(
    (v) =>
      typeof v === 'string'
        ? v
            .split(',')
            .map((x) => x.trim())
            .filter(Boolean)
        : v,
    z.array(label).min(min).max(max),
  );

/** A random seed: a 31-bit non-negative integer. */
export const seedValue = z
  .number()
  .int()
  .min(0)
  .max(2 ** 31 - 1);

/** A task's random seed, with the task's default. */
export const seedParam = (fallback: number) => seedValue.default(fallback);

/** One group's violin/box of a score (CNV and ITH score plots: data/scores.json, data/box.json). */
export interface ScoreBox {
  n: number;
  min: number;
  q1: number;
  median: number;
  q3: number;
  max: number;
  mean: number;
  /** violin outline: density at `grid` points */
  grid: number[];
  density: number[];
}

/** One pairwise comparison of two groups' scores (adjusted p and its stars). */
export interface ScorePair {
  a: string;
  b: string;
  p: number;
  pAdj: number;
  signif: string;
  requested: boolean;
}
