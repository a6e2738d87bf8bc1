/** Adjusted Rand index between two labelings of the same items (Hubert & Arabie 1985). */
export function adjustedRandIndex(a: ArrayLike<string | number>, b: ArrayLike<string | number>): number {
  if (a.length !== b.length) throw new Error(`adjustedRandIndex: ${a.length} vs ${b.length} labels`);
  const joint = new Map<string, number>();
  const ca = new Map<string | number, number>();
  const cb = new Map<string | number, number>();
  for (let i = 0; i < a.length; i++) {
    const k = `${a[i]}\u0000${b[i]}`;
    joint.set(k, (joint.get(k) ?? 0) + 1);
    ca.set(a[i], (ca.get(a[i]) ?? 0) + 1);
    cb.set(b[i], (cb.get(b[i]) ?? 0) + 1);
  }
  const c2 = (n: number) => (n * (n - 1)) / 2;
  let index = 0;
  for (const v of joint.values()) index += c2(v);
  let sa = 0;
  for (const v of ca.values()) sa += c2(v);
  let sb = 0;
  for (const v of cb.values()) sb += c2(v);
  const expected = (sa * sb) / c2(a.length);
  const max = (sa + sb) / 2;
  return max === expected ? 1 : (index - expected) / (max - expected);
}
