/**
 * Small dense linear-algebra kernels shared by the methods (no allocation-heavy library):
 * Jacobi eigen-decomposition of small symmetric matrices, Gram–Schmidt orthonormalisation of
 * tall matrices, and a Gaussian-elimination solver for small systems.
 */

/**
 * Eigen-decomposition of a symmetric n × n matrix (row-major). Returns eigenvalues in
 * decreasing order and the matching eigenvectors as the columns of a row-major n × n matrix.
 */
export function symmetricEigen(
  matrix: Float64Array,
  n: number,
): { values: Float64Array; vectors: Float64Array } {
  const a = Float64Array.from(matrix);
  const v = new Float64Array(n * n);
  for (let i = 0; i < n; i++) v[i * n + i] = 1;
  for (let sweep = 0; sweep < 100; sweep++) {
    let off = 0;
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) off += a[p * n + q] ** 2;
    if (off < 1e-22) break;
    for (let p = 0; p < n; p++) {
      for (let q = p + 1; q < n; q++) {
        const apq = a[p * n + q];
        if (Math.abs(apq) < 1e-300) continue;
        const app = a[p * n + p];
        const aqq = a[q * n + q];
        const theta = (aqq - app) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < n; k++) {
          const akp = a[k * n + p];
          const akq = a[k * n + q];
          a[k * n + p] = c * akp - s * akq;
          a[k * n + q] = s * akp + c * akq;
        }
        for (let k = 0; k < n; k++) {
          const apk = a[p * n + k];
          const aqk = a[q * n + k];
          a[p * n + k] = c * apk - s * aqk;
          a[q * n + k] = s * apk + c * aqk;
        }
        for (let k = 0; k < n; k++) {
          const vkp = v[k * n + p];
          const vkq = v[k * n + q];
          v[k * n + p] = c * vkp - s * vkq;
          v[k * n + q] = s * vkp + c * vkq;
        }
      }
    }
  }
  const order = Array.from({ length: n }, (_, i) => i).sort((i, j) => a[j * n + j] - a[i * n + i]);
  const values = new Float64Array(n);
  const vectors = new Float64Array(n * n);
  order.forEach((src, dst) => {
    values[dst] = a[src * n + src];
    for (let k = 0; k < n; k++) vectors[k * n + dst] = v[k * n + src];
  });
  return { values, vectors };
}

/**
 * Orthonormalise in place the `cols` columns of a tall matrix stored column by column
 * (column j = m[j*rows .. (j+1)*rows)), by modified Gram–Schmidt applied twice for stability.
 * A column that becomes numerically zero is left as zeros. Right-looking: once column i is
 * normalised it is removed from every later column (read once for all of them), which does to
 * each column the same operations in the same order as column by column.
 */
export function orthonormalizeColumns(m: Float64Array, rows: number, cols: number): void {
  for (let pass = 0; pass < 2; pass++) {
    for (let i = 0; i < cols; i++) {
      const oi = i * rows;
      let norm = 0;
      for (let r = 0; r < rows; r++) norm += m[oi + r] ** 2;
      norm = Math.sqrt(norm);
      const inv = norm > 1e-12 ? 1 / norm : 0;
      for (let r = 0; r < rows; r++) m[oi + r] *= inv;
      columnDots(m, oi, m, i + 1, cols, rows, new Float64Array(cols - i - 1), 'all');
    }
  }
}

/**
 * out[c − from] = q[q0 … q0 + n) · column c of x (column c at x[c·n … (c + 1)·n)) for c in
 * [from, to), each dot summed in order (the bits of a plain loop). `remove`: then x_c −= out · q,
 * ('nonzero': only where the dot is not 0). Four columns per pass over q, which does to each column
 * the same operations as one column at a time; q may be a column of x outside [from, to).
 */
export function columnDots(
  q: Float64Array,
  q0: number,
  x: Float64Array,
  from: number,
  to: number,
  n: number,
  out: Float64Array,
  remove: 'no' | 'all' | 'nonzero' = 'no',
): void {
  const v = q.subarray(q0, q0 + n);
  for (let c = from; c < to; c += 4) {
    const k = Math.min(4, to - c);
    const a = x.subarray(c * n, (c + 1) * n);
    const b = k > 1 ? x.subarray((c + 1) * n, (c + 2) * n) : a;
    const e = k > 2 ? x.subarray((c + 2) * n, (c + 3) * n) : a;
    const f = k > 3 ? x.subarray((c + 3) * n, (c + 4) * n) : a;
    let sa = 0;
    let sb = 0;
    let se = 0;
    let sf = 0;
    for (let r = 0; r < n; r++) {
      sa += v[r] * a[r];
      sb += v[r] * b[r];
      se += v[r] * e[r];
      sf += v[r] * f[r];
    }
    const dots = [sa, sb, se, sf];
    for (let t = 0; t < k; t++) out[c - from + t] = dots[t];
    if (remove === 'no') continue;
    const skip = remove === 'nonzero' && dots.slice(0, k).includes(0);
    if (k === 4 && !skip) {
      for (let r = 0; r < n; r++) {
        a[r] -= sa * v[r];
        b[r] -= sb * v[r];
        e[r] -= se * v[r];
        f[r] -= sf * v[r];
      }
    } else {
      for (let t = 0; t < k; t++) {
        const y = [a, b, e, f][t];
        if (remove === 'all' || dots[t] !== 0) for (let r = 0; r < n; r++) y[r] -= dots[t] * v[r];
      }
    }
  }
}

/** Solve A X = B for a small dense n × n system (row-major A, B n × m row-major). */
export function solveDense(aIn: Float64Array, bIn: Float64Array, n: number, m: number): Float64Array {
  const a = Float64Array.from(aIn);
  const b = Float64Array.from(bIn);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(a[r * n + col]) > Math.abs(a[pivot * n + col])) pivot = r;
    if (Math.abs(a[pivot * n + col]) < 1e-300) throw new Error('solveDense: singular matrix');
    if (pivot !== col) {
      for (let k = 0; k < n; k++) swap(a, pivot * n + k, col * n + k);
      for (let k = 0; k < m; k++) swap(b, pivot * m + k, col * m + k);
    }
    const d = a[col * n + col];
    for (let r = 0; r < n; r++) {
      if (r === col) continue;
      const f = a[r * n + col] / d;
      if (f === 0) continue;
      for (let k = col; k < n; k++) a[r * n + k] -= f * a[col * n + k];
      for (let k = 0; k < m; k++) b[r * m + k] -= f * b[col * m + k];
    }
  }
  for (let r = 0; r < n; r++) {
    const d = a[r * n + r];
    for (let k = 0; k < m; k++) b[r * m + k] /= d;
  }
  return b;
}

function swap(x: Float64Array, i: number, j: number): void {
  const t = x[i];
  x[i] = x[j];
  x[j] = t;
}
