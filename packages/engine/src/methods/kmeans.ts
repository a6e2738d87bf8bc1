import { Random } from './random';

/**
 * k-means (k-means++ seeding, then Lloyd iterations) on row-major n × d points, as used to
 * initialise Harmony's cluster centroids. Returns the k × d centroids, row-major.
 */
export function kmeans(
  points: Float64Array,
  n: number,
  d: number,
  k: number,
  opts: { maxIter?: number; seed?: number } = {},
): Float64Array {
  const rng = new Random(opts.seed ?? 0);
  const maxIter = opts.maxIter ?? 25;
  const centers = new Float64Array(k * d);
  const best = new Float64Array(n).fill(Infinity);
  // k-means++ seeding
  let chosen = rng.int(n);
  for (let c = 0; c < k; c++) {
    centers.set(points.subarray(chosen * d, chosen * d + d), c * d);
    let total = 0;
    for (let i = 0; i < n; i++) {
      const dist = sqDist(points, i * d, centers, c * d, d);
      if (dist < best[i]) best[i] = dist;
      total += best[i];
    }
    if (c + 1 === k) break;
    let target = rng.uniform() * total;
    chosen = n - 1;
    for (let i = 0; i < n; i++) {
      target -= best[i];
      if (target <= 0) {
        chosen = i;
        break;
      }
    }
  }
  // Lloyd iterations
  const assign = new Int32Array(n).fill(-1);
  const sums = new Float64Array(k * d);
  const counts = new Float64Array(k);
  const centerNorm = new Float64Array(k);
  for (let iter = 0; iter < maxIter; iter++) {
    let changed = 0;
    // argmin |x − c|² = argmin (|c|² − 2 x·c)
    for (let c = 0; c < k; c++) {
      let s = 0;
      for (let j = 0; j < d; j++) s += centers[c * d + j] * centers[c * d + j];
      centerNorm[c] = s;
    }
    for (let i = 0; i < n; i++) {
      const io = i * d;
      let bestC = 0;
      let bestD = Infinity;
      for (let c = 0; c < k; c++) {
        const co = c * d;
        let dot = 0;
        for (let j = 0; j < d; j++) dot += points[io + j] * centers[co + j];
        const dist = centerNorm[c] - 2 * dot;
        if (dist < bestD) {
          bestD = dist;
          bestC = c;
        }
      }
      if (assign[i] !== bestC) changed++;
      assign[i] = bestC;
    }
    if (changed === 0) break;
    sums.fill(0);
    counts.fill(0);
    for (let i = 0; i < n; i++) {
      const c = assign[i];
      counts[c]++;
      for (let j = 0; j < d; j++) sums[c * d + j] += points[i * d + j];
    }
    for (let c = 0; c < k; c++) {
      if (counts[c] === 0) continue; // keep an empty cluster's previous centre
      for (let j = 0; j < d; j++) centers[c * d + j] = sums[c * d + j] / counts[c];
    }
  }
  return centers;
}

function sqDist(a: Float64Array, ao: number, b: Float64Array, bo: number, d: number): number {
  let s = 0;
  for (let j = 0; j < d; j++) {
    const t = a[ao + j] - b[bo + j];
    s += t * t;
  }
  return s;
}
