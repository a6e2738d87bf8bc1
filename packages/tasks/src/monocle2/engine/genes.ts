import type { Monocle2Params } from '../contract';
import type { CountMatrix } from '@cellcloud/formats/matrix';
import type { GeneMajor } from '@cellcloud/engine/sparse';
import { seuratV3Hvg } from '@cellcloud/engine/stats/seurat-v3-hvg';
import { TaskError } from '@cellcloud/engine/tasks/kit';
import type { DispersionFit } from '../../_shared/engine/trajectory/nb-glm';
import type { ResultHandle } from '@cellcloud/engine/tasks/kit';

/** Genes of an uploaded list: first field of every non-empty line (header lines that match no gene are ignored). */
function parseGeneList(bytes: Uint8Array): string[] {
  return new TextDecoder()
    .decode(bytes)
    .split(/\r?\n/)
    .map((l) => l.split(/[,\t]/)[0]!.trim().replace(/^"|"$/g, ''))
    .filter(Boolean);
}

/**
 * Per gene of the gene-major counts: detectGenes(0.1) counts, the method-of-moments dispersion of
 * size-normalised counts (monocle's pooled estimate), the normalised and the raw means.
 */
export function geneDispersions(
  gm: GeneMajor,
  sf: Float64Array,
  N: number,
): { numExpressed: Int32Array; mu: Float64Array; disp: Float64Array; rawMean: Float64Array } {
  const G = gm.nGenes;
  const numExpressed = new Int32Array(G);
  const mu = new Float64Array(G);
  const disp = new Float64Array(G);
  const rawMean = new Float64Array(G);
  let xim = 0;
  for (let c = 0; c < N; c++) xim += 1 / sf[c]!;
  xim /= N;
  for (let g = 0; g < G; g++) {
    let s = 0;
    let s2 = 0;
    let raw = 0;
    for (let k = gm.indptr[g]!; k < gm.indptr[g + 1]!; k++) {
      const v = gm.data[k]!;
      if (v > 0.1) numExpressed[g]++;
      const x = v / sf[gm.indices[k]!]!;
      s += x;
      s2 += x * x;
      raw += v;
    }
    mu[g] = s / N;
    rawMean[g] = raw / N;
    const v = (s2 - N * mu[g]! * mu[g]!) / Math.max(1, N - 1);
    disp[g] = mu[g]! > 0 ? (v - xim * mu[g]!) / (mu[g]! * mu[g]!) : NaN;
  }
  return { numExpressed, mu, disp, rawMean };
}

/**
 * The ordering genes (gene indices): an uploaded list, monocle's dispersion rule (mean ≥ 0.5 and
 * dispersion ≥ the fit), or the seurat_v3 HVGs.
 */
export function selectOrderingGenes(
  result: ResultHandle,
  counts: CountMatrix,
  params: Pick<Monocle2Params, 'orderingGenes' | 'nHvg'>,
  upload: Uint8Array | undefined,
  mu: Float64Array,
  disp: Float64Array,
  dfit: DispersionFit,
): number[] {
  const G = counts.nGenes;
  let ordering: number[];
  if (params.orderingGenes === 'upload') {
    if (!upload) throw new TaskError('monocle2.uploadMissing', 'Upload the ordering gene list.');
    const names = parseGeneList(upload);
    ordering = [...new Set(names.map((g) => result.geneIndex(g)).filter((g) => g >= 0))].sort(
      (a, b) => a - b,
    );
    if (!ordering.length)
      throw new TaskError('common.noGenesMatched', `None of the ${names.length} genes was found.`, {
        given: names.length,
      });
  } else if (params.orderingGenes === 'dispersion') {
    if (!dfit.ok)
      throw new TaskError('monocle2.noOrderingGenes', 'The dispersion fit failed.', {
        detail: 'dispersion fit failed',
      });
    ordering = [];
    for (let g = 0; g < G; g++) if (mu[g]! >= 0.5 && disp[g]! >= dfit.a + dfit.b / mu[g]!) ordering.push(g);
  } else {
    const hvg = seuratV3Hvg(counts, Math.min(params.nHvg, G));
    ordering = [];
    for (let g = 0; g < G; g++) if (hvg.selected[g]) ordering.push(g);
  }
  return ordering;
}
