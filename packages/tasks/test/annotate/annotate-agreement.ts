/**
 * Agreement of automatic labels with the Seurat pbmc3k tutorial labels (issue 13 targets), shared
 * by the unit test and `npm run bench:annotation`.
 *
 * Documented mapping: the tutorial's 9 types are mapped to the vocabulary CellCloud's automatic
 * annotation produces (bundled references' labels + the subtype names of docs/product/validation.md#subtype-annotation). A call agrees when it
 * is in the tutorial type's set:
 *   Naive CD4 T  → CD4 naive T (subtype), Naive CD4+ T-cell (haematopoietic reference)
 *   Memory CD4 T → CD4 memory T, Treg (subtypes); CD4+ Central/Effector Memory
 *   CD8 T        → CD8 naive T, CD8 effector T (subtypes); CD8+T (HCA); CD8+ … / Naive CD8+ T-cell
 *   NK           → NK (HCA); Mature NK cell_… (haematopoietic)
 *   B            → B, Plasma (HCA); Naive B, Memory B, Plasma cell (subtypes); … B-cell…
 *   CD14+ Mono   → Classical monocyte (subtype); Monocyte when no subtype resolved it
 *   FCGR3A+ Mono → Non-classical monocyte (subtype); Monocyte when no subtype resolved it
 *   DC           → cDC1, cDC2, pDC (subtypes); Dendritic (HCA); Myeloid/Plasmacytoid Dendritic Cell
 *   Platelet     → Megakaryocyte (haematopoietic reference)
 * Coarse types (T, NK, B, monocyte, DC, platelet) group the same sets.
 */
export const TUTORIAL_TO_COARSE: Record<string, string> = {
  'Naive CD4 T': 'T',
  'Memory CD4 T': 'T',
  'CD8 T': 'T',
  NK: 'NK',
  B: 'B',
  'CD14+ Mono': 'monocyte',
  'FCGR3A+ Mono': 'monocyte',
  DC: 'DC',
  Platelet: 'platelet',
};

/** Fine (9-type) class of an automatic label, or undefined when it maps to no tutorial type. */
export function fineClass(label: string): string | undefined {
  if (label === 'CD4 naive T' || label === 'Naive CD4+ T-cell') return 'Naive CD4 T';
  if (label === 'CD4 memory T' || label === 'Treg' || /^CD4\+ (Central|Effector) Memory$/.test(label))
    return 'Memory CD4 T';
  if (
    /^CD8 (naive|effector) T$/.test(label) ||
    label === 'CD8+T' ||
    /^CD8\+ |^Naive CD8\+ T-cell$/.test(label)
  )
    return 'CD8 T';
  if (label === 'NK' || /^Mature NK cell/.test(label)) return 'NK';
  if (/^(B|Plasma|Naive B|Memory B|Plasma cell)$/.test(label) || /B-cell/.test(label)) return 'B';
  if (label === 'Classical monocyte') return 'CD14+ Mono';
  if (label === 'Non-classical monocyte') return 'FCGR3A+ Mono';
  if (/^(cDC1|cDC2|pDC|Dendritic)$/.test(label) || /Dendritic Cell$/.test(label)) return 'DC';
  if (label === 'Megakaryocyte') return 'Platelet';
  return undefined;
}

export function coarseClass(label: string): string | undefined {
  if (label === 'Monocyte' || label === 'Macrophage' || label === 'Myeloid') return 'monocyte';
  if (label === 'CD4+T' || label === 'NKT' || /^CD4 /.test(label)) return 'T';
  const f = fineClass(label);
  return f ? TUTORIAL_TO_COARSE[f] : undefined;
}

export interface Agreement {
  cells: number;
  fine: number;
  coarse: number;
  /** tutorial label → automatic label → cells */
  confusion: Map<string, Map<string, number>>;
}

export function agreement(
  barcodes: readonly string[],
  labels: readonly string[],
  truth: Map<string, string>,
): Agreement {
  let n = 0;
  let fine = 0;
  let coarse = 0;
  const confusion = new Map<string, Map<string, number>>();
  barcodes.forEach((b, c) => {
    const t = truth.get(b);
    if (!t) return;
    n++;
    const l = labels[c]!;
    if (fineClass(l) === t) fine++;
    if (coarseClass(l) === TUTORIAL_TO_COARSE[t]) coarse++;
    let m = confusion.get(t);
    if (!m) confusion.set(t, (m = new Map()));
    m.set(l, (m.get(l) ?? 0) + 1);
  });
  return { cells: n, fine: fine / n, coarse: coarse / n, confusion };
}

export function parseLabels(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.trim().split(/\r?\n/).slice(1)) {
    const i = line.indexOf(',');
    out.set(line.slice(0, i), line.slice(i + 1).replace(/^"|"$/g, ''));
  }
  return out;
}

export function formatConfusion(conf: Map<string, Map<string, number>>): string {
  const lines: string[] = [];
  for (const [t, m] of [...conf.entries()].sort()) {
    const parts = [...m.entries()].sort((a, b) => b[1] - a[1]).map(([l, k]) => `${l} ${k}`);
    lines.push(`  ${t.padEnd(13)} → ${parts.join(', ')}`);
  }
  return lines.join('\n');
}
