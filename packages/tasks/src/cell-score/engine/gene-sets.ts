import { CELL_CYCLE_GENES } from '@cellcloud/engine/tasks/kit';

/**
 * Built-in gene sets of the cell-score task (contracts CELL_SCORE_BUILTIN_SETS). Canonical
 * immune markers as used by the Seurat pbmc3k tutorial's cluster annotation (IL7R, CD3D/E, MS4A1,
 * CD14, LYZ, FCGR3A, GNLY, NKG7, PPBP …) completed with textbook lineage markers; cell-cycle sets
 * are the Tirosh et al. 2016 lists the pipeline already uses (cell-cycle-genes.ts).
 * `hallmark:<NAME>` sets come from the resources folder (gene_sets/h.all.v7.0.symbols.gmt.gz).
 */
export const BUILTIN_GENE_SETS: Record<string, readonly string[]> = {
  tCell: ['CD3D', 'CD3E', 'CD3G', 'CD2', 'IL7R', 'LCK', 'CD247', 'TRAT1'],
  bCell: ['MS4A1', 'CD79A', 'CD79B', 'CD19', 'BANK1', 'CD22', 'TCL1A', 'VPREB3'],
  nkCell: ['GNLY', 'NKG7', 'KLRD1', 'KLRF1', 'PRF1', 'GZMB', 'CTSW', 'XCL2'],
  monocyte: ['CD14', 'LYZ', 'FCGR3A', 'S100A8', 'S100A9', 'FCN1', 'CST3', 'MS4A7'],
  platelet: ['PPBP', 'PF4', 'GP9', 'ITGA2B', 'TUBB1', 'GNG11', 'SPARC', 'CLU'],
  cellCycleS: CELL_CYCLE_GENES.s,
  cellCycleG2M: CELL_CYCLE_GENES.g2m,
};

export const HALLMARK_GMT = 'gene_sets/h.all.v7.0.symbols.gmt.gz';

/** Gene sets of a GMT text (name, description, genes… tab-separated). */
export function parseGmt(text: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const line of text.split(/\r?\n/)) {
    const f = line.split('\t');
    if (f.length < 3 || !f[0]) continue;
    out.set(
      f[0].trim(),
      f
        .slice(2)
        .map((g) => g.trim())
        .filter(Boolean),
    );
  }
  return out;
}
