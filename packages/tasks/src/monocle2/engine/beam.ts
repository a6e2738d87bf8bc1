import type { Monocle2BeamHeatmap } from '../contract';
import { round } from '../../_shared/engine/trajectory/common';
import { nsBasis } from '../../_shared/engine/trajectory/nb-glm';
import { beamTest, wardCut, type DiffTestRow } from './diff-test';
import type { TreeModel } from './order';

/**
 * monocle 2's BEAM (buildBranchCellDataSet with progenitor_method "duplicate", then
 * differentialGeneTest ~sm.ns(Pseudotime, df = 3)*Branch vs ~sm.ns(Pseudotime, df = 3)) and the
 * branched heat map. Branches: the centres beyond each neighbour of the branch point that does not
 * lead to the root, each joined with the path from the branch point back to the root centre; the
 * cells of a branch are those whose closest centre lies on it (the shared progenitor cells are in
 * both). Pseudotime is rescaled to 0–100 within each branch.
 */
export interface BeamInput {
  model: TreeModel;
  rootNode: number;
  branchNode: number;
  pseudotime: Float64Array;
  /** per gene (gene-major access): cells' rounded size-normalised counts filled into y */
  fillY: (gene: number, cells: number[], y: Float64Array) => void;
  theta: (gene: number) => number;
  genes: number[];
  onProgress?: (f: number) => void;
}

export interface BeamResult {
  branches: [number, number];
  nCells: number;
  rows: (DiffTestRow & { g: number })[];
  /** curve(gene row, branch) at 100 pseudotimes 0..100 */
  curves: Map<number, [number[], number[]]>;
}

function pathNodes(adj: number[][], from: number, to: number): number[] {
  const parent = new Map<number, number>([[from, -1]]);
  const q = [from];
  for (let h = 0; h < q.length; h++)
    for (let h = 0; h < q.length; h++) {
      for (const u of adj[q[h]!]!) {
        if (!parent.has(u)) {
          parent.set(u, q[h]!);
          q.push(u);
        }
      }
    }
  const path: number[] = [];
  for (let v = to; v !== -1 && v !== undefined; v = parent.get(v)!) path.push(v);
  return path;
}

export function beam(input: BeamInput): BeamResult {
  const { model, rootNode, branchNode } = input;
  const adj = model.adj;
  const ancestor = pathNodes(adj, branchNode, rootNode);
  const branchSets: number[][] = [];
  for (const nb of adj[branchNode]!) {
    const seen = new Set([branchNode, nb]);
    const comp = [nb];
    for (let h = 0; h < comp.length; h++) {
      for (const u of adj[comp[h]!]!) {
        if (!seen.has(u)) {
          seen.add(u);
          comp.push(u);
        }
      }
    }
    if (comp.includes(rootNode)) continue;
    branchSets.push([...new Set([...ancestor, branchNode, ...comp])]);
  }
  const sets = branchSets.slice(0, 2).map((s) => new Set(s));
  const cellsOf = sets.map((s) => {
    const out: number[] = [];
    for (let i = 0; i < model.N; i++) if (s.has(model.closest[i]!)) out.push(i);
    return out;
  });
  const cells: number[] = [];
  const branch: number[] = [];
  const t: number[] = [];
  cellsOf.forEach((list, b) => {
    let max = 0;
    for (const i of list) max = Math.max(max, input.pseudotime[i]!);
    for (const i of list) {
      cells.push(i);
      branch.push(b);
      t.push(max > 0 ? (100 * input.pseudotime[i]!) / max : 0);
    }
  });
  const n = cells.length;
  const basis = nsBasis(t);
  const Xf = new Float64Array(n * 8);
  const Xr = new Float64Array(n * 4);
  for (let i = 0; i < n; i++) {
    const s = basis.design(t[i]!);
    const b = branch[i]!;
    Xr.set([1, ...s], i * 4);
    Xf.set([1, ...s, b, ...s.map((v) => v * b)], i * 8);
  }
  const y = new Float64Array(n);
  const rows = input.genes.map((g, k) => {
    if (k % 100 === 0) input.onProgress?.(k / input.genes.length);
    input.fillY(g, cells, y);
    return { g, ...beamTest(y, Xf, Xr, n, input.theta(g)) };
  });
  const grid = Array.from({ length: 100 }, (_, i) => (100 * i) / 99);
  const curves = new Map<number, [number[], number[]]>();
  rows.forEach((r, k) => {
    if (!r.beta) return;
    const at = (b: number) =>
      grid.map((tt) => {
        const s = basis.design(tt);
        const x = [1, ...s, b, ...s.map((v) => v * b)];
        return Math.exp(
          Math.min(
            30,
            x.reduce((acc, v, a) => acc + v * r.beta![a]!, 0),
          ),
        ); // as the fit caps η
      });
    curves.set(k, [at(0), at(1)]);
  });
  return {
    branches: [
      branchSets[0]?.find((v) => adj[branchNode]!.includes(v) && !ancestor.includes(v)) ?? -1,
      branchSets[1]?.find((v) => adj[branchNode]!.includes(v) && !ancestor.includes(v)) ?? -1,
    ],
    nCells: n,
    rows,
    curves,
  };
}

/** plot_genes_branched_heatmap data: log10(curve + 1), both branches scaled together, ±3, ward.D2 clusters. */
export function branchedHeatmap(
  genes: string[],
  curves: [number[], number[]][],
  k: number,
  branchNames: string[],
): Monocle2BeamHeatmap {
  const kept: string[] = [];
  const values: number[][] = [];
  curves.forEach(([a, b], i) => {
    const row = [...[...a].reverse(), ...b].map((v) => Math.log10(v + 1));
    const mean = row.reduce((s, v) => s + v, 0) / row.length;
    const sd = Math.sqrt(row.reduce((s, v) => s + (v - mean) ** 2, 0) / (row.length - 1));
    if (!(sd > 0) || !row.every(Number.isFinite)) return;
    kept.push(genes[i]!);
    values.push(row.map((v) => round(Math.max(-3, Math.min(3, (v - mean) / sd)), 4)));
  });
  const n = values.length;
  const m = values[0]?.length ?? 0;
  const dist = new Float64Array(n * n);
  for (let a = 0; a < n; a++) {
    for (let b = a + 1; b < n; b++) {
      let s = 0;
      for (let c = 0; c < m; c++) s += values[a]![c]! * values[b]![c]!;
      dist[a * n + b] = dist[b * n + a] = (1 - s / (m - 1)) / 2;
    }
  }
  const clusters = n ? Array.from(wardCut(dist, n, Math.max(1, Math.min(k, n)))) : [];
  return { branches: branchNames, genes: kept, clusters, values };
}
