import type { Contig } from './contigs';

/**
 * docs/methods/vdj.md: chain filtering, one contig per chain, clonotype strings and expansion classes.
 * Pure functions over parsed contigs; the task (index.ts) matches barcodes and writes tables.
 */
export type Receptor = 'TCR' | 'BCR';

/** The two chain slots of a receptor: TCR TRA / TRB; BCR IGH / light (IGK treated like IGL). */
export const CHAIN_SLOTS: Record<Receptor, [string, string]> = { TCR: ['TRA', 'TRB'], BCR: ['IGH', 'IGL'] };

export function slotOf(receptor: Receptor, chain: string): 0 | 1 | -1 {
  if (receptor === 'TCR') return chain === 'TRA' ? 0 : chain === 'TRB' ? 1 : -1;
  return chain === 'IGH' ? 0 : chain === 'IGK' || chain === 'IGL' ? 1 : -1;
}

/** Receptor with more productive contigs (TRA/TRB vs IGH/IGK/IGL). */
export function detectReceptor(contigs: readonly Contig[]): Receptor {
  let t = 0;
  let b = 0;
  for (const c of contigs) {
    if (!c.productive) continue;
    if (c.chain === 'TRA' || c.chain === 'TRB') t++;
    else if (c.chain === 'IGH' || c.chain === 'IGK' || c.chain === 'IGL') b++;
  }
  return b > t ? 'BCR' : 'TCR';
}

export interface CellChains {
  barcode: string;
  /** The kept contig per slot, or null when the cell has none for that chain. */
  chains: [Contig | null, Contig | null];
}

export interface FilterResult {
  cells: CellChains[];
  /** Cells whose best contig of a chain tied on reads and UMIs (dropped, docs/methods/vdj.md step 3). */
  ambiguous: number;
  /** Cells with only one chain (dropped when pairedOnly). */
  single: number;
  paired: number;
}

/**
 * Productive contigs of the receptor's chains; per cell and slot the contig with most reads, then
 * most UMIs; a tie left after both drops the cell; with `pairedOnly`, cells missing a chain are dropped.
 */
export function filterCells(
  contigs: readonly Contig[],
  receptor: Receptor,
  pairedOnly: boolean,
): FilterResult {
  const byCell = new Map<string, Contig[][]>();
  for (const c of contigs) {
    if (!c.productive) continue;
    const s = slotOf(receptor, c.chain);
    if (s < 0) continue;
    let slots = byCell.get(c.barcode);
    if (!slots) byCell.set(c.barcode, (slots = [[], []]));
    slots[s]!.push(c);
  }
  const cells: CellChains[] = [];
  let ambiguous = 0;
  let single = 0;
  let paired = 0;
  for (const [barcode, slots] of byCell) {
    const picked: (Contig | null)[] = [];
    let tie = false;
    for (const list of slots) {
      if (list.length === 0) {
        picked.push(null);
        continue;
      }
      let best = list[0]!;
      let tied = false;
      for (let k = 1; k < list.length; k++) {
        const c = list[k]!;
        if (c.reads > best.reads || (c.reads === best.reads && c.umis > best.umis)) {
          best = c;
          tied = false;
        } else if (c.reads === best.reads && c.umis === best.umis) tied = true;
      }
      if (tied) tie = true;
      picked.push(best);
    }
    if (tie) {
      ambiguous++;
      continue;
    }
    const both = picked[0] !== null && picked[1] !== null;
    if (both) paired++;
    else single++;
    if (pairedOnly && !both) continue;
    cells.push({ barcode, chains: [picked[0]!, picked[1]!] as [Contig | null, Contig | null] });
  }
  return { cells, ambiguous, single, paired };
}

export type CloneDefine = 'VDJ' | 'CDR3' | 'VDJ_CDR3' | 'VDJ_CDR3aa';

export interface Clonotypes {
  CTgene: string;
  CTaa: string;
  CTnt: string;
  CTstrict: string;
  CTstrictaa: string;
}

/** VDJgene = v-d-j genes joined with "-" (docs/methods/vdj.md); a missing chain is "None". */
const vdjGene = (c: Contig | null) =>
  c ? [c.v, c.d, c.j].filter((g) => g !== 'None').join('-') || 'None' : 'None';

export function clonotypesOf(cell: CellChains): Clonotypes {
  const [a, b] = cell.chains;
  const part = (f: (c: Contig) => string) => [a, b].map((c) => (c ? f(c) : 'None')).join('_');
  return {
    CTgene: `${vdjGene(a)}_${vdjGene(b)}`,
    CTaa: part((c) => c.cdr3),
    CTnt: part((c) => c.cdr3nt),
    CTstrict: [a, b].map((c) => (c ? `${vdjGene(c)};${c.cdr3nt}` : 'None')).join('_'),
    CTstrictaa: [a, b].map((c) => (c ? `${vdjGene(c)};${c.cdr3}` : 'None')).join('_'),
  };
}

export const DEFINITION_COLUMN: Record<CloneDefine, keyof Clonotypes> = {
  VDJ: 'CTgene',
  CDR3: 'CTaa',
  VDJ_CDR3: 'CTstrict',
  VDJ_CDR3aa: 'CTstrictaa',
};

/** Expansion class of a clone frequency with bins (0, b1], (b1, b2], (b2, ∞). */
export function classOf(frequency: number, breaks: readonly [number, number]): 'Single' | 'Medium' | 'Large' {
  return frequency <= breaks[0] ? 'Single' : frequency <= breaks[1] ? 'Medium' : 'Large';
}
