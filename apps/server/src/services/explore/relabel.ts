import { NOT_IN_SUBSET } from '@cellcloud/contracts/explore';

/**
 * Relabelling of subset codes: each old label gets a new name; old labels sharing a new name are
 * merged (the merged label keeps the first member's colour). Labels keep their first-seen order.
 */
export interface Labelled {
  labels: string[];
  colours: (string | null)[];
  codes: Uint32Array;
}

export function relabel(
  src: Labelled,
  newName: (label: string) => string,
): Labelled & { counts: number[]; merged: boolean } {
  const labels: string[] = [];
  const colours: (string | null)[] = [];
  const map = new Uint32Array(src.labels.length);
  src.labels.forEach((l, i) => {
    const name = newName(l);
    let j = labels.indexOf(name);
    if (j < 0) {
      j = labels.length;
      labels.push(name);
      colours.push(src.colours[i] ?? null);
    }
    map[i] = j;
  });
  const codes = new Uint32Array(src.codes.length);
  const counts = new Array<number>(labels.length).fill(0);
  for (let c = 0; c < codes.length; c += 1) {
    const old = src.codes[c]!;
    if (old === NOT_IN_SUBSET) codes[c] = NOT_IN_SUBSET;
    else {
      codes[c] = map[old]!;
      counts[map[old]!]! += 1;
    }
  }
  return { labels, colours, codes, counts, merged: labels.length < src.labels.length };
}

/** Keeps the cells whose label is in `keep` (others leave the subset), relabelled 0..k-1. */
export function restrict(src: Labelled, keep: Set<string>): Labelled & { counts: number[] } {
  const labels = src.labels.filter((l) => keep.has(l));
  const index = new Map(labels.map((l, i) => [l, i]));
  const map = src.labels.map((l) => index.get(l) ?? NOT_IN_SUBSET);
  const codes = new Uint32Array(src.codes.length);
  const counts = new Array<number>(labels.length).fill(0);
  for (let c = 0; c < codes.length; c += 1) {
    const old = src.codes[c]!;
    const n = old === NOT_IN_SUBSET ? NOT_IN_SUBSET : map[old]!;
    codes[c] = n;
    if (n !== NOT_IN_SUBSET) counts[n]! += 1;
  }
  return {
    labels,
    colours: src.labels.flatMap((l, i) => (keep.has(l) ? [src.colours[i] ?? null] : [])),
    codes,
    counts,
  };
}

/** First pair of labels sharing a colour (case-insensitive), if any. */
export function duplicateColour(
  labels: string[],
  colours: (string | null)[],
): { a: string; b: string; colour: string } | null {
  const seen = new Map<string, string>();
  for (let i = 0; i < labels.length; i += 1) {
    const c = colours[i]?.toLowerCase();
    if (!c) continue;
    const other = seen.get(c);
    if (other !== undefined) return { a: other, b: labels[i]!, colour: c };
    seen.set(c, labels[i]!);
  }
  return null;
}
