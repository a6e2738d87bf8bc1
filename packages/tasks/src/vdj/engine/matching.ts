import type { VdjParams } from '../contract';
import type { ResultHandle } from '@cellcloud/engine/tasks/kit';

const SAMPLE_KEY = 'Sample ID';
const strip1 = (b: string) => b.replace(/-1$/, '');

export interface Samples {
  names: string[];
  ofCell: (c: number) => string;
}

/** The analysis' samples: its "Sample ID" level, or one unnamed sample. */
export function samplesOf(result: ResultHandle): Samples {
  const col = result.obs(SAMPLE_KEY);
  if (col && col.kind === 'categorical') {
    const names = [...new Set(col.values)];
    return { names, ofCell: (c) => col.values[c]! };
  }
  return { names: ['sample'], ofCell: () => 'sample' };
}

export interface FileMatch {
  file: string;
  sample: string;
  /** contig barcode → result cell index */
  cellOf: Map<string, number>;
  cells: number;
  matched: number;
}

/**
 * Matches one file's barcodes to result cells: `<sample>_<barcode>` when the result has several
 * samples (docs/methods/vdj.md prefixes), the bare barcode otherwise; "-1" stripped on both sides when
 * that matches more (stripSuffix auto) or always (yes).
 */
export function matchFile(
  result: ResultHandle,
  samples: Samples,
  file: string,
  barcodes: string[],
  wanted: string | undefined,
  strip: VdjParams['stripSuffix'],
): FileMatch {
  const multi = samples.names.length > 1;
  const try1 = (sample: string, stripping: boolean) => {
    const index = new Map<string, number>();
    for (let c = 0; c < result.nCells; c++) {
      if (multi && samples.ofCell(c) !== sample) continue;
      let b = result.barcodes[c]!;
      if (multi && b.startsWith(`${sample}_`)) b = b.slice(sample.length + 1);
      index.set(stripping ? strip1(b) : b, c);
    }
    const cellOf = new Map<string, number>();
    for (const b of barcodes) {
      const c = index.get(stripping ? strip1(b) : b);
      if (c !== undefined) cellOf.set(b, c);
    }
    return cellOf;
  };
  const candidates = wanted ? [wanted] : samples.names;
  let best: FileMatch | undefined;
  for (const sample of candidates) {
    const options = strip === 'auto' ? [false, true] : [strip === 'yes'];
    for (const s of options) {
      const cellOf = try1(sample, s);
      if (!best || cellOf.size > best.matched)
        best = { file, sample, cellOf, cells: barcodes.length, matched: cellOf.size };
    }
  }
  return best!;
}
