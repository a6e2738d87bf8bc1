/**
 * Canonical markers of common major cell types (human symbols; mouse symbols are the same letters
 * in title case). Shown in the Gene Expression tab when the "canonical markers" display switch
 * (SPEC §6) is on. Sources: Seurat pbmc3k tutorial and the hsPBMC marker list of clustifyr.
 */
export const CANONICAL_MARKERS: ReadonlyArray<{ cellType: string; genes: string[] }> = [
  { cellType: 'T cells', genes: ['CD3D', 'CD3E', 'IL7R'] },
  { cellType: 'CD8 T', genes: ['CD8A'] },
  { cellType: 'NK cells', genes: ['GNLY', 'NKG7'] },
  { cellType: 'B cells', genes: ['MS4A1', 'CD79A'] },
  { cellType: 'Monocytes', genes: ['CD14', 'LYZ', 'FCGR3A'] },
  { cellType: 'Dendritic cells', genes: ['FCER1A', 'CST3'] },
  { cellType: 'Platelets', genes: ['PPBP'] },
  { cellType: 'Endothelial', genes: ['PECAM1', 'VWF'] },
  { cellType: 'Epithelial', genes: ['EPCAM', 'KRT18'] },
  { cellType: 'Fibroblasts', genes: ['COL1A1', 'DCN'] },
];

export function markerSymbol(human: string, species: string): string {
  return /mus musculus|mouse/i.test(species) ? human.charAt(0) + human.slice(1).toLowerCase() : human;
}
