import type { SubtypeLineage } from '../contract';
import type { MarkerType } from './marker-score';

/**
 * docs/product/validation.md#subtype-annotation: automatic subtype annotation is limited to mononuclear phagocytes, T cells, B cells and
 * endothelial cells, in human and mouse, with exact names. Each lineage has:
 * - `major`: which reference labels (any bundled reference) belong to it;
 * - `panel`: curated canonical markers of its subtypes (textbook markers, e.g. the Seurat pbmc3k
 *   tutorial, Azimuth PBMC level 2, Villani 2017 for DCs, Kalucka 2020 for endothelial cells),
 *   human symbols — mouse genes are found by the case-insensitive symbol match;
 * - `sub2`: the labels of the haematopoietic reference that refine it further (annot_sub2, human).
 */
export interface LineageDef {
  id: SubtypeLineage;
  major: RegExp;
  panel: MarkerType[];
  sub2?: RegExp;
}

export const LINEAGES: readonly LineageDef[] = [
  {
    id: 't_cells',
    major: /T-cell|CD4\+|CD8\+|^T cells?$|^NKT$|^T$|Treg|^Tgd$/i,
    sub2: /T-cell|CD4\+|CD8\+|^NKT$/,
    panel: [
      {
        name: 'CD4 naive T',
        positive: ['CD3E', 'CCR7', 'SELL', 'LEF1', 'TCF7', 'CD4'],
        negative: ['CD8A', 'CD8B', 'S100A4', 'NKG7', 'GZMK'],
      },
      {
        name: 'CD4 memory T',
        positive: ['CD3E', 'IL7R', 'S100A4', 'ANXA1', 'CD40LG', 'CD4'],
        negative: ['CD8A', 'CD8B', 'NKG7', 'CCR7'],
      },
      {
        name: 'CD8 naive T',
        positive: ['CD3E', 'CD8A', 'CD8B', 'CCR7', 'SELL', 'LEF1'],
        negative: ['GZMK', 'NKG7', 'CD4'],
      },
      {
        name: 'CD8 effector T',
        positive: ['CD3E', 'CD8A', 'CD8B', 'GZMK', 'GZMH', 'CCL5', 'NKG7'],
        negative: ['CCR7', 'CD4'],
      },
      { name: 'Treg', positive: ['FOXP3', 'IL2RA', 'CTLA4', 'TIGIT', 'RTKN2'] },
      { name: 'MAIT', positive: ['SLC4A10', 'KLRB1', 'ZBTB16', 'TRAV1-2', 'RORC'] },
      { name: 'gamma delta T', positive: ['TRDC', 'TRGC1', 'TRGC2', 'TRDV2'] },
    ],
  },
  {
    id: 'mononuclear_phagocytes',
    major: /Monocyte|Macrophage|Dendritic|^Myeloid$|Microglia/,
    sub2: /Monocyte$|Dendritic/,
    panel: [
      {
        name: 'Classical monocyte',
        positive: ['CD14', 'LYZ', 'S100A8', 'S100A9', 'VCAN', 'FCN1', 'LY6C2', 'CCR2'],
        negative: ['FCGR3A'],
      },
      {
        name: 'Non-classical monocyte',
        positive: ['FCGR3A', 'MS4A7', 'CDKN1C', 'RHOC', 'IFITM3'],
        negative: ['CD14'],
      },
      { name: 'cDC1', positive: ['CLEC9A', 'XCR1', 'CADM1', 'BATF3', 'IDO1'] },
      { name: 'cDC2', positive: ['CD1C', 'FCER1A', 'CLEC10A', 'HLA-DQA1'] },
      { name: 'pDC', positive: ['LILRA4', 'CLEC4C', 'IL3RA', 'TCF4', 'SIGLECH'] },
      { name: 'Macrophage', positive: ['C1QA', 'C1QB', 'C1QC', 'APOE', 'MRC1', 'ADGRE1'] },
    ],
  },
  {
    id: 'b_cells',
    major: /B-cell|^B cells?$|^B$|Plasma|Naïve B/i,
    sub2: /B-cell|Naïve B/,
    panel: [
      { name: 'Naive B', positive: ['MS4A1', 'IGHD', 'TCL1A', 'FCER2', 'IL4R'], negative: ['CD27', 'MZB1'] },
      {
        name: 'Memory B',
        positive: ['MS4A1', 'CD27', 'AIM2', 'TNFRSF13B', 'IGHA1', 'IGHG1'],
        negative: ['IGHD', 'MZB1'],
      },
      { name: 'Plasma cell', positive: ['MZB1', 'JCHAIN', 'XBP1', 'SDC1', 'PRDM1', 'IGHG1'] },
    ],
  },
  {
    id: 'endothelial',
    major: /Endothelial/i,
    panel: [
      { name: 'Arterial endothelial', positive: ['GJA5', 'HEY1', 'EFNB2', 'SEMA3G', 'GJA4'] },
      { name: 'Venous endothelial', positive: ['ACKR1', 'NR2F2', 'SELP', 'VWF'] },
      { name: 'Capillary endothelial', positive: ['CA4', 'RGCC', 'PLVAP', 'CD36'] },
      { name: 'Lymphatic endothelial', positive: ['PROX1', 'LYVE1', 'CCL21', 'PDPN'] },
    ],
  },
];

export function lineageOfLabel(label: string): LineageDef | undefined {
  return LINEAGES.find((l) => l.major.test(label));
}

export function lineageById(id: SubtypeLineage): LineageDef {
  return LINEAGES.find((l) => l.id === id)!;
}
