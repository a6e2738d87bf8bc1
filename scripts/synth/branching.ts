/**
 * Synthetic branching trajectory with known time and branch per cell (issue 23 tests and
 * `npm run bench:trajectory`). Run directly to print a summary:
 *   npx tsx scripts/synth/branching.ts [cellsPerSegment] [seed]
 *
 * Shape: a trunk (time 0 → 0.5) that splits into branches A and B (time 0.5 → 1), `cellsPerSegment`
 * cells on each of the three segments, time uniform within a segment. Genes (negative binomial
 * counts, size 5, mean × a per-cell library factor lognormal(0, 0.25)):
 *   - 60 "early" genes: high at time 0, decaying (mean 8·exp(−t / 0.25) + 0.2),
 *   - 60 "late" genes: rising with time on both branches (mean 6·t + 0.2),
 *   - 60 "A" and 60 "B" genes: rising after the split on their branch only (mean 16·(t − 0.5) + 0.2),
 *   - `nNoise` (default 400) housekeeping/noise genes with constant means 0.2–3.
 * Each gene's amplitude is jittered ×U(0.6, 1.4). Cell types for monocle3: 'start' (t < 0.25),
 * 'trunk' (0.25 ≤ t < 0.5), 'A', 'B'. A 2D layout like a UMAP (trunk along x, branches at ±35°,
 * Gaussian noise sd 0.15) is provided as the `umap` embedding.
 */
import type { CountMatrix } from '@cellcloud/formats/matrix';
import { Random } from '../../packages/engine/src/methods/random';

export interface BranchingData {
  counts: CountMatrix;
  genes: { ids: string[]; symbols: string[] };
  barcodes: string[];
  time: Float64Array;
  /** 'trunk' | 'A' | 'B' */
  branch: string[];
  celltype: string[];
  /** row-major nCells × 2 */
  umap: Float32Array;
}

export function branchingData(
  opts: { cellsPerSegment?: number; seed?: number; nNoise?: number } = {},
): BranchingData {
  const per = opts.cellsPerSegment ?? 500;
  const nNoise = opts.nNoise ?? 400;
  const rng = new Random(opts.seed ?? 1);
  const n = per * 3;
  const time = new Float64Array(n);
  const branch: string[] = [];
  for (let i = 0; i < n; i++) {
    const seg = Math.floor(i / per);
    const u = rng.uniform();
    time[i] = seg === 0 ? 0.5 * u : 0.5 + 0.5 * u;
    branch.push(seg === 0 ? 'trunk' : seg === 1 ? 'A' : 'B');
  }
  type Profile = (t: number, b: string) => number;
  const profiles: { name: string; f: Profile }[] = [];
  const amp = () => 0.6 + 0.8 * rng.uniform();
  for (let g = 0; g < 60; g++) {
    const a = amp();
    profiles.push({ name: `EARLY${g + 1}`, f: (t) => a * 8 * Math.exp(-t / 0.25) + 0.2 });
  }
  for (let g = 0; g < 60; g++) {
    const a = amp();
    profiles.push({ name: `LATE${g + 1}`, f: (t) => a * 6 * t + 0.2 });
  }
  for (const side of ['A', 'B']) {
    for (let g = 0; g < 60; g++) {
      const a = amp();
      profiles.push({
        name: `BR${side}${g + 1}`,
        f: (t, b) => (b === side ? a * 16 * Math.max(0, t - 0.5) : 0) + 0.2,
      });
    }
  }
  for (let g = 0; g < nNoise; g++) {
    const m = 0.2 + 2.8 * rng.uniform();
    profiles.push({ name: `NOISE${g + 1}`, f: () => m });
  }
  const nGenes = profiles.length;
  const indptr = new Float64Array(n + 1);
  const idx: number[] = [];
  const val: number[] = [];
  const size = 5;
  for (let i = 0; i < n; i++) {
    const lib = Math.exp(0.25 * rng.normal());
    for (let g = 0; g < nGenes; g++) {
      const mu = profiles[g]!.f(time[i]!, branch[i]!) * lib;
      const lambda = rng.gamma(size) * (mu / size);
      const c = rng.poisson(lambda);
      if (c > 0) {
        idx.push(g);
        val.push(c);
      }
    }
    indptr[i + 1] = idx.length;
  }
  const umap = new Float32Array(n * 2);
  const ang = (35 * Math.PI) / 180;
  for (let i = 0; i < n; i++) {
    const t = time[i]!;
    let x: number;
    let y: number;
    if (t < 0.5) {
      x = t * 10;
      y = 0;
    } else {
      const s = (t - 0.5) * 10;
      x = 5 + s * Math.cos(ang);
      y = (branch[i] === 'A' ? 1 : -1) * s * Math.sin(ang);
    }
    umap[2 * i] = x + 0.15 * rng.normal();
    umap[2 * i + 1] = y + 0.15 * rng.normal();
  }
  return {
    counts: { nGenes, nCells: n, indptr, indices: Uint32Array.from(idx), data: Float32Array.from(val) },
    genes: { ids: profiles.map((p) => `SYN_${p.name}`), symbols: profiles.map((p) => p.name) },
    barcodes: Array.from({ length: n }, (_, i) => `cell${i + 1}`),
    time,
    branch,
    celltype: Array.from({ length: n }, (_, i) =>
      branch[i] !== 'trunk' ? branch[i]! : time[i]! < 0.25 ? 'start' : 'trunk',
    ),
    umap,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const d = branchingData({
    cellsPerSegment: Number(process.argv[2] ?? 500),
    seed: Number(process.argv[3] ?? 1),
  });
  console.log(`${d.counts.nCells} cells × ${d.counts.nGenes} genes, ${d.counts.indices.length} non-zeros`);
}
