import type { CountMatrix } from '@cellcloud/formats/matrix';
import { addGeneMeans, scoreCells, scoreGeneSets } from './score-genes';

export type CellCyclePhase = 'G1' | 'S' | 'G2M';

export interface CellCycleGenes {
  s: string[];
  g2m: string[];
}

export interface CellCycleScores {
  sScore: Float32Array;
  g2mScore: Float32Array;
  phase: CellCyclePhase[];
  /** how many genes of each list were found in the data */
  sGenesFound: number;
  g2mGenesFound: number;
}

/**
 * Cell-cycle scoring as scanpy's `score_genes_cell_cycle`: S and G2M scores with `score_genes`
 * (control set size = the shorter list's length, seed per call), phase S by default, G2M where
 * the G2M score is higher, G1 where both scores are negative. Gene symbols are matched
 * case-insensitively, so a human list also finds mouse-cased symbols (Mcm5); unmatched genes are
 * skipped.
 */
export function scoreCellCycle(
  logNorm: CountMatrix,
  geneSymbols: readonly string[],
  genes: CellCycleGenes,
  opts: { seed?: number; nBins?: number } = {},
): CellCycleScores {
  if (geneSymbols.length !== logNorm.nGenes) {
    throw new Error(
      `scoreCellCycle: ${geneSymbols.length} gene symbols for a matrix of ${logNorm.nGenes} genes; pass one symbol per gene row`,
    );
  }
  return scoreCellCycleChunks(
    { nCells: logNorm.nCells, forEach: (visit) => visit(logNorm, 0) },
    geneSymbols,
    genes,
    opts,
  );
}

/** A matrix read as consecutive groups of cells (the whole matrix, or a count store's chunks). */
export interface CellPasses {
  nCells: number;
  /** Visits every group of cells in order; `c0` is the group's first cell. */
  forEach(visit: (m: CountMatrix, c0: number) => void): void;
}

/**
 * scoreCellCycle over a matrix read in groups of cells (issue 33: the out-of-core run): one pass
 * for the gene means, one for both scores — the same sums in the same order, so the same scores.
 */
export function scoreCellCycleChunks(
  logNorm: CellPasses,
  geneSymbols: readonly string[],
  genes: CellCycleGenes,
  opts: { seed?: number; nBins?: number } = {},
): CellCycleScores {
  const byName = new Map<string, number>();
  geneSymbols.forEach((s, g) => {
    const key = s.toUpperCase();
    if (!byName.has(key)) byName.set(key, g);
  });
  const match = (list: string[]) => [
    ...new Set(list.map((s) => byName.get(s.toUpperCase())).filter((g): g is number => g !== undefined)),
  ];
  const sIdx = match(genes.s);
  const g2mIdx = match(genes.g2m);
  if (sIdx.length === 0 || g2mIdx.length === 0) {
    throw new Error(
      `scoreCellCycle: found ${sIdx.length} S and ${g2mIdx.length} G2M genes in the data; cell-cycle scoring needs both lists (human or mouse data with gene symbols)`,
    );
  }
  const ctrlSize = Math.min(genes.s.length, genes.g2m.length);
  const seed = opts.seed ?? 0;
  const { nCells } = logNorm;
  const mean = new Float64Array(geneSymbols.length);
  logNorm.forEach((m) => addGeneMeans(mean, m, nCells));
  const g2mSets = scoreGeneSets(mean, g2mIdx, { ctrlSize, seed, nBins: opts.nBins });
  const sSets = scoreGeneSets(mean, sIdx, { ctrlSize, seed, nBins: opts.nBins });
  const g2mScore = new Float32Array(nCells);
  const sScore = new Float32Array(nCells);
  logNorm.forEach((m, c0) => {
    scoreCells(m, g2mSets, g2mScore, c0);
    scoreCells(m, sSets, sScore, c0);
  });
  const phase = Array.from(sScore, (s, c): CellCyclePhase => {
    const g = g2mScore[c];
    if (s < 0 && g < 0) return 'G1';
    return g > s ? 'G2M' : 'S';
  });
  return { sScore, g2mScore, phase, sGenesFound: sIdx.length, g2mGenesFound: g2mIdx.length };
}

/**
 * Parses a cell-cycle gene list text (no I/O; the caller reads the file):
 *  - CSV with header `gene,phase[,gene_updated_2019]` (shared/data/cell_cycle): both the original
 *    and the updated HGNC name are kept, so either naming in the data matches;
 *  - or rows `s.genes<sep>A,B,…` and `g2m.genes<sep>C,D,…` (the CeleLens file format).
 */
export function parseCellCycleGenes(text: string): CellCycleGenes {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l.length > 0);
  const out: CellCycleGenes = { s: [], g2m: [] };
  const header = lines[0]?.toLowerCase().split(',') ?? [];
  if (header[0] === 'gene' && header[1] === 'phase') {
    for (const line of lines.slice(1)) {
      const [gene, phase, updated] = line.split(',').map((x) => x.trim());
      const target =
        phase?.toUpperCase() === 'S' ? out.s : phase?.toUpperCase() === 'G2M' ? out.g2m : undefined;
      if (!target || !gene)
        throw new Error(`parseCellCycleGenes: line "${line}" needs a gene and a phase S or G2M`);
      target.push(gene);
      if (updated && updated !== gene) target.push(updated);
    }
  } else {
    for (const line of lines) {
      const m = /^(s|g2m)\.genes\s*[:,\t ]\s*(.*)$/i.exec(line);
      if (!m)
        throw new Error(
          `parseCellCycleGenes: unrecognised line "${line}"; expected "s.genes …" / "g2m.genes …" or a gene,phase CSV`,
        );
      const genes = m[2].split(/[,\s]+/).filter((g) => g.length > 0);
      (m[1].toLowerCase() === 's' ? out.s : out.g2m).push(...genes);
    }
  }
  if (out.s.length === 0 || out.g2m.length === 0)
    throw new Error('parseCellCycleGenes: the file must list both S and G2M genes');
  return out;
}
