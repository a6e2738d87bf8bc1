/** Seeded random stream of the boosting (gbm.ts): xoshiro128** through splitmix32, the algorithm of methods/random inlined so the worker threads load it without a bundler (grn-worker.ts). */

const rotl = (v: number, k: number) => ((v << k) | (v >>> (32 - k))) >>> 0;

/** One xoshiro128** step on the state s (4 words). */
function xoshiro(s: Uint32Array): number {
  const s0 = s[0]!;
  const s1 = s[1]!;
  const s2 = s[2]! ^ s0;
  const s3 = s[3]! ^ s1;
  s[0] = s0 ^ s3;
  s[1] = s1 ^ s2;
  s[2] = s2 ^ (s1 << 9);
  s[3] = rotl(s3, 11);
  return Math.imul(rotl(Math.imul(s1, 5) >>> 0, 7), 9) >>> 0;
}

export interface Rng {
  /** One 32-bit draw scaled to [0, n) (bias < n / 2^32, negligible for cell and TF counts). */
  below(n: number): number;
  /** Partial Fisher–Yates: a[0..k) become k draws without replacement (a[i] ↔ a[i + below(n − i)]). */
  shuffleHead(a: Int32Array, k: number): void;
}

/** xoshiro128** seeded through splitmix32 (the algorithm of methods/random, inlined for workers). */
export function makeRng(seed: number): Rng {
  let x = seed >>> 0;
  const next = (): number => {
    x = (x + 0x9e3779b9) >>> 0;
    let z = x;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
  const s = Uint32Array.of(next(), next(), next(), next());
  if ((s[0]! | s[1]! | s[2]! | s[3]!) === 0) s[0] = 1;
  return {
    below: (n) => Math.floor((xoshiro(s) / 4294967296) * n),
    shuffleHead(a, k) {
      const n = a.length;
      for (let i = 0; i < k; i++) {
        const j = i + Math.floor((xoshiro(s) / 4294967296) * (n - i));
        const t = a[j]!;
        a[j] = a[i]!;
        a[i] = t;
      }
    },
  };
}
