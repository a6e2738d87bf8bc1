/**
 * The repulsive part of the t-SNE gradient by the Barnes–Hut approximation (van der Maaten 2014,
 * "Accelerating t-SNE using tree-based algorithms"; openTSNE's `negative_gradient_method="bh"`,
 * which openTSNE picks below 10,000 points): the points go into a quadtree (2D) or octree (3D);
 * a cell whose side s is small beside its distance d to a point (s² < θ² d², θ = 0.5 as openTSNE
 * and sklearn) stands for all its points at their centre of mass. Same outputs as exactRepulsion
 * (methods/tsne/repulsion): Σ_j (yᵢ − yⱼ)/(1 + d²)² per point and Z = Σ_{i≠j} 1/(1 + d²).
 *
 * Why ours: the fixed-size FFT grid of the interpolation costs the same per iteration whatever the
 * number of points (pbmc3k, 2,700 cells: ~32 ms per iteration, 24 s per 2D layout), and all pairs
 * cost n² (the 3D layout of pbmc3k: 14.5 s); the tree costs n log n. Deterministic: one thread,
 * points inserted and visited in their order.
 */
export const BH_THETA = 0.5;

/** Cells are split at most this deep; points closer than the root's side / 2^depth share a leaf. */
const MAX_DEPTH = 40;

/**
 * Points a leaf holds before it is split (summed exactly when the leaf is opened): fewer, deeper
 * cells cost more visits than the pairs they save. Whole layouts of 2,700 points, CPU s with 1 / 4
 * / 8 per leaf: 2D 5.2–5.4 / 4.5–4.8 / 4.5–4.8, 3D 10.6 / 8.3–9.1 / 8.1–8.5 (load 8).
 */
const LEAF_POINTS = 8;

export class BarnesHutRepulsion {
  private readonly nChildren: number;
  /** Per node: first child (−1: leaf), points below, sums of their coordinates, centre, half side. */
  private child = new Int32Array(0);
  private count = new Int32Array(0);
  private sum = new Float64Array(0);
  private centre = new Float64Array(0);
  private half = new Float64Array(0);
  private depth = new Int32Array(0);
  /** A leaf's points as a linked list: first point (−1: none), next point of each point. */
  private head = new Int32Array(0);
  private readonly next: Int32Array;
  private nNodes = 0;
  private stack = new Int32Array(64);

  constructor(
    private readonly n: number,
    private readonly dims: 2 | 3,
    private readonly theta = BH_THETA,
  ) {
    if (dims !== 2 && dims !== 3) throw new Error(`BarnesHutRepulsion: dims must be 2 or 3, got ${dims}`);
    this.nChildren = 1 << dims;
    this.next = new Int32Array(n);
    this.grow(Math.max(16, 2 * n));
  }

  /** Writes Σ_j (yᵢ − yⱼ)/(1 + d²)² into `out` (row-major n × dims); returns Z. */
  compute(y: Float64Array, out: Float64Array): number {
    this.build(y);
    return this.dims === 2 ? this.forces2d(y, out) : this.forces3d(y, out);
  }

  private grow(capacity: number): void {
    const { dims } = this;
    const copy = <T extends Int32Array | Float64Array>(a: T, per: number, make: (k: number) => T): T => {
      const b = make(capacity * per);
      b.set(a.subarray(0, this.nNodes * per));
      return b;
    };
    this.child = copy(this.child, 1, (k) => new Int32Array(k));
    this.count = copy(this.count, 1, (k) => new Int32Array(k));
    this.head = copy(this.head, 1, (k) => new Int32Array(k));
    this.depth = copy(this.depth, 1, (k) => new Int32Array(k));
    this.half = copy(this.half, 1, (k) => new Float64Array(k));
    this.sum = copy(this.sum, dims, (k) => new Float64Array(k));
    this.centre = copy(this.centre, dims, (k) => new Float64Array(k));
  }

  private newNode(depth: number, half: number): number {
    if (this.nNodes === this.child.length) this.grow(2 * this.child.length);
    const v = this.nNodes++;
    this.child[v] = -1;
    this.count[v] = 0;
    this.head[v] = -1;
    this.depth[v] = depth;
    this.half[v] = half;
    for (let a = 0; a < this.dims; a++) this.sum[v * this.dims + a] = 0;
    return v;
  }

  /** The tree of the current points: each point added to the sums of every cell on its path. */
  private build(y: Float64Array): void {
    const { n, dims } = this;
    this.nNodes = 0;
    let halfSide = 0;
    const root = this.newNode(0, 0);
    for (let a = 0; a < dims; a++) {
      let lo = Infinity;
      let hi = -Infinity;
      for (let i = 0; i < n; i++) {
        const v = y[i * dims + a];
        if (v < lo) lo = v;
        if (v > hi) hi = v;
      }
      this.centre[root * dims + a] = (lo + hi) / 2;
      halfSide = Math.max(halfSide, (hi - lo) / 2);
    }
    this.half[root] = halfSide * (1 + 1e-9) + 1e-12;
    for (let i = 0; i < n; i++) this.insert(root, i, y);
    // sums → centres of mass, half sides → squared sides (one division per cell, not per visit)
    const { count, sum, half } = this;
    for (let v = 0; v < this.nNodes; v++) {
      const k = count[v];
      if (k > 0) for (let a = 0; a < dims; a++) sum[v * dims + a] /= k;
      half[v] = 4 * half[v] * half[v];
    }
  }

  private insert(root: number, i: number, y: Float64Array): void {
    let v = root;
    this.add(v, i, y);
    for (;;) {
      if (this.child[v] >= 0) {
        v = this.child[v] + this.octant(v, i, y);
        this.add(v, i, y);
        continue;
      }
      // count[v] already includes i: a leaf keeps up to LEAF_POINTS points
      if (this.count[v] <= LEAF_POINTS || this.depth[v] >= MAX_DEPTH) {
        this.next[i] = this.head[v];
        this.head[v] = i;
        return;
      }
      // a full leaf: split it and move its points one level down; the loop then goes on with i
      // from v (splitting again while they all fall in the same cell)
      let j = this.head[v];
      this.head[v] = -1;
      this.split(v);
      while (j >= 0) {
        const after = this.next[j];
        const w = this.child[v] + this.octant(v, j, y);
        this.add(w, j, y);
        this.next[j] = this.head[w];
        this.head[w] = j;
        j = after;
      }
    }
  }

  /** Point i counted in node v's number of points and coordinate sums. */
  private add(v: number, i: number, y: Float64Array): void {
    const { dims } = this;
    this.count[v]++;
    for (let a = 0; a < dims; a++) this.sum[v * dims + a] += y[i * dims + a];
  }

  private split(v: number): void {
    const { dims, nChildren } = this;
    const h = this.half[v] / 2;
    const d = this.depth[v] + 1;
    let first = -1;
    for (let c = 0; c < nChildren; c++) {
      const w = this.newNode(d, h);
      if (c === 0) first = w;
      for (let a = 0; a < dims; a++)
        this.centre[w * dims + a] = this.centre[v * dims + a] + ((c >> a) & 1 ? h : -h);
    }
    this.child[v] = first;
  }

  /** Which child of v the point i falls in: bit a set when its coordinate a is above the centre. */
  private octant(v: number, i: number, y: Float64Array): number {
    const { dims } = this;
    let c = 0;
    for (let a = 0; a < dims; a++) if (y[i * dims + a] > this.centre[v * dims + a]) c |= 1 << a;
    return c;
  }

  /*
   * forces2d and forces3d are the same walk spelled out per dimension, as exactRepulsion's exact2d /
   * exact3d: the coordinates in locals and no inner loop over the axes in the hottest loop of the
   * layout (the 2D walk runs 750 times per layout; a shared walk would put an axis loop in it).
   */
  private forces2d(y: Float64Array, out: Float64Array): number {
    const { n, child, count, sum, half, head, next } = this;
    const theta2 = this.theta * this.theta;
    let stack = this.stack;
    let z = 0;
    for (let i = 0; i < n; i++) {
      const xi = y[2 * i];
      const yi = y[2 * i + 1];
      let fx = 0;
      let fy = 0;
      let zi = 0;
      let top = 0;
      stack[top++] = 0;
      while (top > 0) {
        const v = stack[--top];
        const c = child[v];
        if (c < 0) {
          for (let j = head[v]; j >= 0; j = next[j]) {
            if (j === i) continue;
            const dx = xi - y[2 * j];
            const dy = yi - y[2 * j + 1];
            const q = 1 / (1 + dx * dx + dy * dy);
            zi += q;
            const q2 = q * q;
            fx += q2 * dx;
            fy += q2 * dy;
          }
          continue;
        }
        const dx = xi - sum[2 * v];
        const dy = yi - sum[2 * v + 1];
        const d2 = dx * dx + dy * dy;
        if (half[v] < theta2 * d2) {
          const k = count[v];
          const q = 1 / (1 + d2);
          zi += k * q;
          const q2 = k * q * q;
          fx += q2 * dx;
          fy += q2 * dy;
          continue;
        }
        if (top + 4 > stack.length) stack = this.stack = growStack(stack);
        for (let t = c; t < c + 4; t++) if (count[t] > 0) stack[top++] = t;
      }
      out[2 * i] = fx;
      out[2 * i + 1] = fy;
      z += zi;
    }
    return z;
  }

  private forces3d(y: Float64Array, out: Float64Array): number {
    const { n, child, count, sum, half, head, next } = this;
    const theta2 = this.theta * this.theta;
    let stack = this.stack;
    let z = 0;
    for (let i = 0; i < n; i++) {
      const xi = y[3 * i];
      const yi = y[3 * i + 1];
      const wi = y[3 * i + 2];
      let fx = 0;
      let fy = 0;
      let fw = 0;
      let zi = 0;
      let top = 0;
      stack[top++] = 0;
      while (top > 0) {
        const v = stack[--top];
        const c = child[v];
        if (c < 0) {
          for (let j = head[v]; j >= 0; j = next[j]) {
            if (j === i) continue;
            const dx = xi - y[3 * j];
            const dy = yi - y[3 * j + 1];
            const dw = wi - y[3 * j + 2];
            const q = 1 / (1 + dx * dx + dy * dy + dw * dw);
            zi += q;
            const q2 = q * q;
            fx += q2 * dx;
            fy += q2 * dy;
            fw += q2 * dw;
          }
          continue;
        }
        const dx = xi - sum[3 * v];
        const dy = yi - sum[3 * v + 1];
        const dw = wi - sum[3 * v + 2];
        const d2 = dx * dx + dy * dy + dw * dw;
        if (half[v] < theta2 * d2) {
          const k = count[v];
          const q = 1 / (1 + d2);
          zi += k * q;
          const q2 = k * q * q;
          fx += q2 * dx;
          fy += q2 * dy;
          fw += q2 * dw;
          continue;
        }
        if (top + 8 > stack.length) stack = this.stack = growStack(stack);
        for (let t = c; t < c + 8; t++) if (count[t] > 0) stack[top++] = t;
      }
      out[3 * i] = fx;
      out[3 * i + 1] = fy;
      out[3 * i + 2] = fw;
      z += zi;
    }
    return z;
  }
}

function growStack(stack: Int32Array): Int32Array<ArrayBuffer> {
  const bigger = new Int32Array(stack.length * 2);
  bigger.set(stack);
  return bigger;
}
