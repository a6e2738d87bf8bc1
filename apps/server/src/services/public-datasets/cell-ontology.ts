/**
 * Cell Ontology lineage mapping used by the public ingest: `cell_type_ontology_term_id` (the
 * CELLxGENE `cell_type`, stored as `annot_sub`) → its ancestor at the MAJOR-LINEAGE level, stored
 * as `annot_full` (docs/methods/public-data.md#annotation-levels: the coarsest standardized level).
 *
 * The lineage level is the first of these Cell Ontology classes found walking up `is_a` from the
 * cell type: T cell (CL:0000084), NK cell (CL:0000623), B cell (CL:0000236), plasma cell
 * (CL:0000786), monocyte (CL:0000576), macrophage (CL:0000235), dendritic cell (CL:0000451),
 * mast cell (CL:0000097), neutrophil (CL:0000775), erythrocyte (CL:0000232), platelet
 * (CL:0000233), megakaryocyte (CL:0000556), hematopoietic stem/progenitor (CL:0000037),
 * endothelial cell (CL:0000115), fibroblast (CL:0000057), epithelial cell (CL:0000066),
 * neuron (CL:0000540), glial cell (CL:0000125). The `is_a` walk was resolved offline (the
 * ontology is not shipped) into the table below for the descendants met in curated datasets; an id
 * not in the table keeps its own cell type as `annot_full` and is reported as a warning.
 */
export const LINEAGES: Record<string, string> = {
  'CL:0000084': 'T cell',
  'CL:0000623': 'NK cell',
  'CL:0000236': 'B cell',
  'CL:0000786': 'Plasma cell',
  'CL:0000576': 'Monocyte',
  'CL:0000235': 'Macrophage',
  'CL:0000451': 'Dendritic cell',
  'CL:0000097': 'Mast cell',
  'CL:0000775': 'Neutrophil',
  'CL:0000232': 'Erythrocyte',
  'CL:0000233': 'Platelet',
  'CL:0000556': 'Megakaryocyte',
  'CL:0000037': 'HSPC',
  'CL:0000115': 'Endothelial cell',
  'CL:0000057': 'Fibroblast',
  'CL:0000066': 'Epithelial cell',
  'CL:0000540': 'Neuron',
  'CL:0000125': 'Glial cell',
};

/** Descendant → lineage class id (resolved `is_a` closure, see above). */
const ANCESTOR: Record<string, string> = {
  // T cells
  'CL:0000624': 'CL:0000084', // CD4-positive, alpha-beta T cell
  'CL:0000625': 'CL:0000084', // CD8-positive, alpha-beta T cell
  'CL:0000895': 'CL:0000084', // naive thymus-derived CD4-positive, alpha-beta T cell
  'CL:0000897': 'CL:0000084', // CD4-positive, alpha-beta memory T cell
  'CL:0000900': 'CL:0000084', // naive thymus-derived CD8-positive, alpha-beta T cell
  'CL:0000909': 'CL:0000084', // CD8-positive, alpha-beta memory T cell
  'CL:0000815': 'CL:0000084', // regulatory T cell
  'CL:0000798': 'CL:0000084', // gamma-delta T cell
  'CL:0000940': 'CL:0000084', // mucosal invariant T cell
  'CL:0000913': 'CL:0000084', // effector memory CD8-positive, alpha-beta T cell
  'CL:0000791': 'CL:0000084', // mature alpha-beta T cell
  // NK
  'CL:0000938': 'CL:0000623', // CD16-negative, CD56-bright natural killer cell
  'CL:0000939': 'CL:0000623', // CD16-positive, CD56-dim natural killer cell
  // B
  'CL:0000788': 'CL:0000236', // naive B cell
  'CL:0000787': 'CL:0000236', // memory B cell
  'CL:0000818': 'CL:0000236', // transitional stage B cell
  // monocytes
  'CL:0001054': 'CL:0000576', // CD14-positive monocyte
  'CL:0002396': 'CL:0000576', // CD14-low, CD16-positive monocyte
  'CL:0000860': 'CL:0000576', // classical monocyte
  'CL:0000875': 'CL:0000576', // non-classical monocyte
  // dendritic cells
  'CL:0000784': 'CL:0000451', // plasmacytoid dendritic cell
  'CL:0000990': 'CL:0000451', // conventional dendritic cell
  'CL:0002399': 'CL:0000451', // CD1c-positive myeloid dendritic cell
  'CL:0001058': 'CL:0000451', // plasmacytoid dendritic cell, human
  // plasma
  'CL:0000980': 'CL:0000786', // plasmablast
  // progenitors
  'CL:0000837': 'CL:0000037', // hematopoietic multipotent progenitor cell
};

/** annot_full of a cell type: its lineage label, or undefined when the id is not known. */
export function lineageOf(ontologyId: string): string | undefined {
  if (LINEAGES[ontologyId]) return LINEAGES[ontologyId];
  const a = ANCESTOR[ontologyId];
  return a ? LINEAGES[a] : undefined;
}
