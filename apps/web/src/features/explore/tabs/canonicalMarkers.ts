/**
 * Canonical markers of common major cell types (human symbols; mouse symbols are the same letters
 * in title case). Shown in the Gene Expression tab when the "canonical markers" display switch
 * (docs/product/permissions.md#display-switches) is on. Sources: Seurat pbmc3k tutorial and the hsPBMC marker list of clustifyr.
 */
export const CANONICAL_MARKERS: ReadonlyArray<{ key: string; cellType: string; genes: string[] }> = [
  { key: 'tCells', cellType: 'T cells', genes: ['CD3D', 'CD3E', 'IL7R'] },
  { key: 'cd8T', cellType: 'CD8 T', genes: ['CD8A'] },
  { key: 'nkCells', cellType: 'NK cells', genes: ['GNLY', 'NKG7'] },
  { key: 'bCells', cellType: 'B cells', genes: ['MS4A1', 'CD79A'] },
  { key: 'monocytes', cellType: 'Monocytes', genes: ['CD14', 'LYZ', 'FCGR3A'] },
  { key: 'dendritic', cellType: 'Dendritic cells', genes: ['FCER1A', 'CST3'] },
  { key: 'platelets', cellType: 'Platelets', genes: ['PPBP'] },
  { key: 'endothelial', cellType: 'Endothelial', genes: ['PECAM1', 'VWF'] },
  { key: 'epithelial', cellType: 'Epithelial', genes: ['EPCAM', 'KRT18'] },
  { key: 'fibroblasts', cellType: 'Fibroblasts', genes: ['COL1A1', 'DCN'] },
];

export function markerSymbol(human: string, species: string): string {
  return /mus musculus|mouse/i.test(species) ? human.charAt(0) + human.slice(1).toLowerCase() : human;
}
