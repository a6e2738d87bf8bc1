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
