import { solveDense, symmetricEigen } from '@cellcloud/engine/methods/linalg';
import {
  centreMst,
  evenlySpacedCentres,
  lloyd2d,
  softAssignRow,
  treeLaplacian,
  treeLength,
} from '../../_shared/engine/trajectory/principal-tree';

/**
 * DDRTree (Mao et al. 2015, reversed graph embedding; the DDRTree R package 0.1.5 that monocle 2
 * calls with dimensions 2, ncenter = cal_ncenter(N), maxIter 20, sigma 1e-3, lambda 5N,
 * gamma 10, tol 1e-3). Alternates: MST over the K centres Y; soft assignment R of the 2D cell
 * coordinates Z to Y (bandwidth sigma); C = X Q with Q = (I + R M⁻¹ Rᵀ)/(γ + 1),
 * M = ((γ+1)/γ)((λ/γ) L + Γ) − RᵀR; W = top-2 eigenvectors of (C Xᵀ + X Cᵀ)/2; Z = Wᵀ C;
 * Y = Z R ((λ/γ) L + Γ)⁻¹ — never forming the N × N matrix Q.
 *
 * X is given in the coordinates of its leading principal axes (`xr`, N × r: the scaled ordering-gene
 * matrix's PC scores), i.e. DDRTree runs on the rank-r approximation of the expression matrix; W
 * then lives in that r-dimensional span (exact when r reaches the matrix rank).
 */
export interface DdrTreeResult {
  /** N × 2 cell coordinates (reducedDimS), row-major */
  Z: Float64Array;
  /** K × 2 centres (reducedDimK), row-major */
  Y: Float64Array;
  K: number;
  iterations: number;
  objective: number[];
}

export function ddrtree(
  xr: Float64Array,
  N: number,
  r: number,
  opts: {
    ncenter: number;
    maxIter?: number;
    sigma?: number;
    lambda?: number;
    gamma?: number;
    tol?: number;
    onIter?: (i: number) => void;
  },
): DdrTreeResult {
  const { ncenter: K, maxIter = 20, sigma = 1e-3, gamma = 10, tol = 1e-3 } = opts;
  const lambda = opts.lambda ?? 5 * N;
  const d = 2;
  // X Xᵀ (r × r)
  const XXt = new Float64Array(r * r);
  for (let i = 0; i < N; i++) {
    const o = i * r;
    for (let a = 0; a < r; a++) {
      const xa = xr[o + a]!;
      for (let b = a; b < r; b++) XXt[a * r + b] += xa * xr[o + b]!;
    }
  }
  for (let a = 0; a < r; a++) for (let b = 0; b < a; b++) XXt[a * r + b] = XXt[b * r + a]!;
  let W = topEigenvectors(XXt, r, d); // r × d row-major
  const Z = project(W, xr, N, r, d); // N × d
  // initial centres: k-means of Z from evenly spaced cells (DDRTree: seq(1, N, length.out = K))
  const Y = evenlySpacedCentres(Z, N, K);
  lloyd2d(Z, N, Y, K, 10);
  const R = new Float64Array(N * K);
  const objective: number[] = [];
  let iter = 0;
  for (iter = 0; iter < maxIter; iter++) {
    opts.onIter?.(iter);
    const edges = centreMst(Y, K);
    const L = treeLaplacian(K, edges, 1);
    // soft assignment
    const Gamma = new Float64Array(K);
    let obj1 = 0;
    for (let i = 0; i < N; i++) {
      const o = i * K;
      const { sum: s, min } = softAssignRow(Z, i, Y, K, sigma, R, o);
      obj1 += -sigma * (Math.log(s) - min / sigma);
      for (let c = 0; c < K; c++) {
        R[o + c] = R[o + c]! / s;
        Gamma[c] += R[o + c]!;
      }
    }
    // objective: ||X − W Z||² + λ tr(Y L Yᵀ) + γ obj1
    let xwz = 0;
    for (let i = 0; i < N; i++) {
      for (let a = 0; a < r; a++) {
        let v = xr[i * r + a]!;
        for (let k = 0; k < d; k++) v -= W[a * d + k]! * Z[i * d + k]!;
        xwz += v * v;
      }
    }
    const trace = treeLength(Y, edges);
    const obj = xwz + lambda * (trace / 2) + gamma * obj1;
    objective.push(obj);
    if (iter > 0 && Math.abs((obj - objective[iter - 1]!) / objective[iter - 1]!) < tol) break;
    // M = ((γ+1)/γ)((λ/γ) L + Γ) − RᵀR
    const M = new Float64Array(K * K);
    const nz: number[] = [];
    for (let i = 0; i < N; i++) {
      const o = i * K;
      nz.length = 0;
      for (let c = 0; c < K; c++) if (R[o + c]! >= 1e-12) nz.push(c);
      for (const a of nz) for (const b of nz) M[a * K + b] -= R[o + a]! * R[o + b]!;
    }
    const f = (gamma + 1) / gamma;
    for (let a = 0; a < K; a++) {
      for (let b = 0; b < K; b++) M[a * K + b] += f * (lambda / gamma) * L[a * K + b]!;
      M[a * K + a] += f * Gamma[a]!;
    }
    // XR (r × K) as its transpose RᵀX (K × r)
    const RtX = new Float64Array(K * r);
    for (let i = 0; i < N; i++) {
      const o = i * K;
      for (let c = 0; c < K; c++) {
        const rc = R[o + c]!;
        if (rc < 1e-12) continue;
        for (let a = 0; a < r; a++) RtX[c * r + a] += rc * xr[i * r + a]!;
      }
    }
    // A' = M⁻¹ RᵀX (K × r): C = (X + (A')ᵀ Rᵀ)/(γ+1) column-wise; C Xᵀ = (X Xᵀ + A'ᵀ (RᵀX))/(γ+1)
    const Ap = solveDense(M, RtX, K, r);
    const CXt = new Float64Array(r * r);
    for (let a = 0; a < r; a++) {
      for (let b = 0; b < r; b++) {
        let s = XXt[a * r + b]!;
        for (let c = 0; c < K; c++) s += Ap[c * r + a]! * RtX[c * r + b]!;
        CXt[a * r + b] = s / (gamma + 1);
      }
    }
    const sym = new Float64Array(r * r);
    for (let a = 0; a < r; a++)
      for (let b = 0; b < r; b++) sym[a * r + b] = (CXt[a * r + b]! + CXt[b * r + a]!) / 2;
    W = topEigenvectors(sym, r, d);
    // Z = Wᵀ C: per cell i, C_i = (x_i + Σ_c R_ic A'_c)/(γ+1)
    const WtA = new Float64Array(K * d);
    for (let c = 0; c < K; c++)
      for (let k = 0; k < d; k++) {
        let s = 0;
        for (let a = 0; a < r; a++) s += W[a * d + k]! * Ap[c * r + a]!;
        WtA[c * d + k] = s;
      }
    const Zx = project(W, xr, N, r, d);
    for (let i = 0; i < N; i++) {
      const o = i * K;
      for (let k = 0; k < d; k++) {
        let s = Zx[i * d + k]!;
        for (let c = 0; c < K; c++) {
          const rc = R[o + c]!;
          if (rc >= 1e-12) s += rc * WtA[c * d + k]!;
        }
        Z[i * d + k] = s / (gamma + 1);
      }
    }
    // Y = Z R ((λ/γ) L + Γ)⁻¹
    const A = new Float64Array(K * K);
    for (let a = 0; a < K; a++) {
      for (let b = 0; b < K; b++) A[a * K + b] = (lambda / gamma) * L[a * K + b]!;
      A[a * K + a] += Gamma[a]!;
    }
    const ZRt = new Float64Array(K * d);
    for (let i = 0; i < N; i++) {
      const o = i * K;
      for (let c = 0; c < K; c++) {
        const rc = R[o + c]!;
        if (rc < 1e-12) continue;
        ZRt[c * d] += rc * Z[i * d]!;
        ZRt[c * d + 1] += rc * Z[i * d + 1]!;
      }
    }
    for (let a = 0; a < K; a++) A[a * K + a] += 1e-12;
    Y.set(solveDense(A, ZRt, K, d));
  }
  return { Z, Y, K, iterations: iter, objective };
}

function topEigenvectors(m: Float64Array, r: number, d: number): Float64Array {
  const { values, vectors } = symmetricEigen(m, r);
  const order = Array.from({ length: r }, (_, i) => i).sort((a, b) => values[b]! - values[a]!);
  const W = new Float64Array(r * d);
  for (let k = 0; k < d; k++) {
    const col = order[k]!;
    // fix the sign: largest |component| positive
    let big = 0;
    for (let a = 0; a < r; a++)
      if (Math.abs(vectors[a * r + col]!) > Math.abs(big)) big = vectors[a * r + col]!;
    const s = big < 0 ? -1 : 1;
    for (let a = 0; a < r; a++) W[a * d + k] = s * vectors[a * r + col]!;
  }
  return W;
}

function project(W: Float64Array, xr: Float64Array, N: number, r: number, d: number): Float64Array {
  const Z = new Float64Array(N * d);
  for (let i = 0; i < N; i++) {
    for (let k = 0; k < d; k++) {
      let s = 0;
      for (let a = 0; a < r; a++) s += W[a * d + k]! * xr[i * r + a]!;
      Z[i * d + k] = s;
    }
  }
  return Z;
}

/** monocle 2's cal_ncenter. */
export function calNcenter(ncells: number, limit = 100): number {
  return Math.round((2 * limit * Math.log(ncells)) / (Math.log(ncells) + Math.log(limit)));
}
