/**
 * The streamed PCA's HVG submatrix held as 2-byte counts (issue 33, stream/pca.ts) against float32
 * values, on a synthetic HVG submatrix: by default 150,000 cells × 2,000 genes, ≈ 440 values per
 * cell (synth1m's HVG density: 1,480 non-zeros per cell × the memory estimate's HVG share 0.3),
 * counts with pbmc3k's tail (≈ 16 % ≥ 4, 6 % ≥ 8, 2.5 % ≥ 16). Prints CPU seconds and the load
 * average with each figure.
 *
 *   npx tsx scripts/bench/hvg-counts.ts products [cells] [variants]
 * The sparse products (methods/implicit-matrix.ts) on one thread, operands 60 wide as the PCA's
 * Krylov blocks: CPU seconds per product (best of BENCH_REPEAT, default 3) for 'float' (the
 * in-memory path's values) and 'counts' (decoded where the products read them), and whether both
 * give the same bits. Variants: 'float,counts' (default) or one of them.
 *
 *   npx tsx scripts/bench/hvg-counts.ts pca [cells] counts|float
 * streamedPca as the streamed run calls it, on cell chunks generated on demand (nothing of the
 * matrix held but what the PCA holds): its CPU seconds (all threads; the chunks' generation
 * included), the bytes of its HVG submatrix, the process's peak RSS (VmHWM) and checksums of the
 * PCs and variance ratios (the same bits before and after a change) — run each variant in its own
 * process. The script runs against an engine without the counts variant too (`git
 * archive` of an earlier commit beside a node_modules link): both variants are then float32 values.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import type { CellChunks } from '@cellcloud/formats/cell-chunks';
import type { CountMatrix } from '@cellcloud/formats/matrix';
import { ImplicitMatrix, type ProductMatrix } from '../../packages/engine/src/methods/implicit-matrix';
import { Random } from '../../packages/engine/src/methods/random';
import { MAX_SCALED_VALUE, PCA_START_SEED, scaledSparsePca } from '../../packages/engine/src/steps/pca';
import { hvgSubmatrix } from '../../packages/engine/src/stream/pca';
import { countStored } from '../../packages/engine/src/stream/select';
import { logNormalizedCells } from '../../packages/engine/src/stream/views';

const mode = process.argv[2] ?? 'products';
const nCells = Number(process.argv[3] ?? 150_000);
const nGenes = 2000;
const perCell = 440;
const CHUNK_CELLS = 2048;
const load = () =>
  `load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`;

/** Cells [c0, c1) of the synthetic matrix (the same cells whatever the chunking: one seed per cell). */
function cells(c0: number, c1: number): CountMatrix {
  const rows: { genes: number[]; counts: number[] }[] = [];
  const seen = new Uint8Array(nGenes);
  for (let c = c0; c < c1; c++) {
    const rng = new Random(1000 + c);
    const length = Math.max(1, Math.round(perCell * (0.5 + rng.uniform())));
    const genes: number[] = [];
    while (genes.length < length) {
      const g = Math.floor(rng.uniform() * nGenes);
      if (!seen[g]) {
        seen[g] = 1;
        genes.push(g);
      }
    }
    genes.sort((a, b) => a - b);
    for (const g of genes) seen[g] = 0;
    // P(count ≥ t) ≈ t^(−4/3)
    const counts = genes.map(() =>
      Math.min(5000, Math.max(1, Math.floor(Math.exp(-0.75 * Math.log(1 - rng.uniform()))))),
    );
    rows.push({ genes, counts });
  }
  const indptr = new Float64Array(c1 - c0 + 1);
  rows.forEach((r, i) => (indptr[i + 1] = indptr[i] + r.genes.length));
  const indices = Uint32Array.from(rows.flatMap((r) => r.genes));
  const data = Float32Array.from(rows.flatMap((r) => r.counts));
  return { nGenes, nCells: c1 - c0, indptr, indices, data };
}

/** The synthetic matrix as cell chunks, each generated when read. */
function chunks(): CellChunks {
  const chunkStart = (i: number) => Math.min(nCells, i * CHUNK_CELLS);
  return {
    nCells,
    nGenes,
    nnz: 0,
    chunkCount: Math.ceil(nCells / CHUNK_CELLS),
    chunkStart,
    chunk: (i) => cells(chunkStart(i), chunkStart(i + 1)),
  };
}

function cpu(repeat: number, run: () => void): number {
  let best = Infinity;
  for (let r = 0; r < repeat; r++) {
    const t0 = process.cpuUsage();
    run();
    const t = process.cpuUsage(t0);
    best = Math.min(best, (t.user + t.system) / 1e6);
  }
  return best;
}

function products(variants: string[]): void {
  const repeat = Number(process.env.BENCH_REPEAT ?? 3);
  const src = chunks();
  const stored = countStored(src);
  const normalized = logNormalizedCells(src, stored.totals, stored.kind);
  const all = new Uint8Array(nGenes).fill(1);
  const rng = new Random(3);
  const center = Float64Array.from({ length: nGenes }, () => rng.uniform());
  const scale = Float64Array.from({ length: nGenes }, () => 0.5 + rng.uniform());
  const col = Int32Array.from({ length: nGenes }, (_, g) => g);
  const w = 60;
  const left = Float64Array.from({ length: nGenes * w }, () => rng.normal());
  const right = Float64Array.from({ length: nCells * w }, () => rng.normal());
  console.log(
    `${nCells} cells × ${nGenes} genes, ${stored.nnz} values (${(stored.nnz / nCells).toFixed(0)} per cell), width ${w}, best of ${repeat}, one thread`,
  );
  const results: Record<string, Float64Array[]> = {};
  for (const variant of variants) {
    const view = variant === 'counts' ? normalized : { ...normalized, fromCounts: undefined };
    const m = hvgSubmatrix(view, all, stored.geneNnz);
    const op = new ImplicitMatrix(m, col, center, scale, w, 1);
    const out: Float64Array[] = [];
    const figures = [
      ['times', cpu(repeat, () => out.push(op.times(left, w)))],
      ['transposeTimes', cpu(repeat, () => out.push(op.transposeTimes(right, w)))],
      ['gram', cpu(repeat, () => out.push(op.gram(left, w)))],
    ] as const;
    op.close();
    results[variant] = out;
    console.log(
      `${variant.padEnd(6)} ${figures.map(([name, s]) => `${name} ${s.toFixed(2)} CPU s`).join(', ')}; ${load()}`,
    );
  }
  if (results.float && results.counts) {
    const same = results.float.every((a, i) => a.every((x, j) => Object.is(x, results.counts[i][j])));
    console.log(same ? 'counts and float: the same bits' : 'counts and float DIFFER');
  }
}

/** Bytes of the arrays an HVG submatrix holds. */
function heldBytes(m: ProductMatrix): number {
  const v = m.countValues;
  const parts = [m.indptr, m.indices, m.data, v?.counts, v?.factor, v?.table, v?.cap];
  return parts.reduce((a, p) => a + (p?.byteLength ?? 0), 0);
}

function pca(variant: string): void {
  const src = chunks();
  const stored = countStored(src);
  const normalized = logNormalizedCells(src, stored.totals, stored.kind);
  const view = variant === 'counts' ? normalized : { ...normalized, fromCounts: undefined };
  const all = new Uint8Array(nGenes).fill(1);
  const t0 = process.cpuUsage();
  const w0 = performance.now();
  // streamedPca's two calls, the submatrix's bytes counted between them
  const sub = hvgSubmatrix(view, all, stored.geneNnz);
  const held = heldBytes(sub);
  const fit = scaledSparsePca(sub, PCA_START_SEED, MAX_SCALED_VALUE, true);
  const t = process.cpuUsage(t0);
  const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
  console.log(
    `${variant}: ${nCells} cells, ${stored.nnz} values; HVG submatrix ${(held / 2 ** 20).toFixed(0)} MiB ` +
      `(${(held / stored.nnz).toFixed(2)} B per value); streamedPca (chunks generated again inside) ${((t.user + t.system) / 1e6).toFixed(1)} CPU s, ` +
      `${((performance.now() - w0) / 1000).toFixed(1)} s wall, ${fit.nComputed} PCs; peak RSS ${(Number(hwm) / 1024).toFixed(0)} MiB; ${load()}`,
  );
  console.log(`PCs checksum ${checksum(fit.pcs)}, variance ratios checksum ${checksum(fit.varianceRatio)}`);
}

/** FNV-1a of the bytes of a float64 array: equal checksums, the same bits (before and after a change). */
function checksum(a: Float64Array): string {
  const bytes = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  let h = 0x811c9dc5;
  for (const b of bytes) h = Math.imul(h ^ b, 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
}

if (mode === 'products') products((process.argv[4] ?? 'float,counts').split(','));
else if (mode === 'pca') pca(process.argv[4] ?? 'counts');
else throw new Error(`mode: products or pca, not ${mode}`);
