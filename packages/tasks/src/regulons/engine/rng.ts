import { Random } from '@cellcloud/engine/methods/random';

/** Seeded random stream of the boosting (gbm.ts): methods/random's xoshiro128** (also in the workers, grn-worker.ts). */
export interface Rng {
  /** One 32-bit draw scaled to [0, n) (bias < n / 2^32, negligible for cell and TF counts). */
  below(n: number): number;
  /** Partial Fisher–Yates: a[0..k) become k draws without replacement (a[i] ↔ a[i + below(n − i)]). */
  shuffleHead(a: Int32Array, k: number): void;
}

export function makeRng(seed: number): Rng {
  const r = new Random(seed);
  const below = (n: number): number => Math.floor((r.nextUint32() / 4294967296) * n);
  return {
    below,
    shuffleHead(a, k) {
      const n = a.length;
      for (let i = 0; i < k; i++) {
        const j = i + below(n - i);
        const t = a[j]!;
        a[j] = a[i]!;
        a[i] = t;
      }
    },
  };
}
