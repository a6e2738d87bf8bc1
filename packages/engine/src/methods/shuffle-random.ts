import { seededState } from './random';

/**
 * The seeded visiting orders of Louvain / Leiden (issue 33): random.ts's `Random(seed).shuffle`,
 * draw for draw — the same xoshiro128** stream seeded through splitmix32, the same
 * uniform → floor(u·(i + 1)) Fisher–Yates — with the state in a Uint32Array and int32 locals: the
 * class's `>>> 0` numbers above 2³⁰ are heap numbers in V8, an allocation per state update,
 * which made the shuffles ≈ 10 % of a million-node Leiden run.
 * test/methods/community-identity.test.ts checks it against Random on many seeds and lengths.
 */
export class ShuffleRandom {
  private readonly s = new Uint32Array(4);

  constructor(seed = 0) {
    this.s.set(seededState(seed));
  }

  /** In-place Fisher–Yates shuffle, as Random.shuffle. */
  shuffle(a: Int32Array): Int32Array {
    const s = this.s;
    let s0 = s[0] | 0;
    let s1 = s[1] | 0;
    let s2 = s[2] | 0;
    let s3 = s[3] | 0;
    for (let i = a.length - 1; i > 0; i--) {
      // two nextUint32 draws, as Random.uniform (unrolled: a loop of two ran at half the speed)
      let r = 0;
      let t = 0;
      r = Math.imul(s1, 5);
      r = Math.imul((r << 7) | (r >>> 25), 9);
      t = s1 << 9;
      s2 ^= s0;
      s3 ^= s1;
      s1 ^= s2;
      s0 ^= s3;
      s2 ^= t;
      s3 = (s3 << 11) | (s3 >>> 21);
      const hi = r >>> 5;
      r = Math.imul(s1, 5);
      r = Math.imul((r << 7) | (r >>> 25), 9);
      t = s1 << 9;
      s2 ^= s0;
      s3 ^= s1;
      s1 ^= s2;
      s0 ^= s3;
      s2 ^= t;
      s3 = (s3 << 11) | (s3 >>> 21);
      const lo = r >>> 6;
      const j = Math.floor(((hi * 67108864 + lo) / 9007199254740992) * (i + 1));
      const tmp = a[i];
      a[i] = a[j];
      a[j] = tmp;
    }
    s[0] = s0;
    s[1] = s1;
    s[2] = s2;
    s[3] = s3;
    return a;
  }
}
