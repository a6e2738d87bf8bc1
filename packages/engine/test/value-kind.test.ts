import { describe, expect, it } from 'vitest';
import { runAnalysis } from '../src/run-analysis';
import { adjustedRandIndex } from '../src/stats/ari';
import { countsKind, logNormalize } from '../src/steps/normalize';
import { syntheticDataset } from '../src/synthetic';

/**
 * Issue 32 in the engine (docs/methods/import-formats.md#value-kinds): already log-normalized input
 * is not normalized and logged again, and its HVGs come from dispersion on its own values; TPM-like
 * non-integer counts are normalized as counts. Both find the planted clusters as the integer counts do.
 */
const syn = syntheticDataset({ nCells: 400, nGenes: 1500, nClusters: 4, markersPerCluster: 40, seed: 7 });
const counts = syn.dataset.counts;
const withData = (data: Float32Array) => ({
  ...syn.dataset,
  counts: { ...counts, data },
});
const logged = withData(Float32Array.from(logNormalize(counts).data));
// TPM-like: each cell scaled to 10⁶ (non-integer, large values)
const tpm = withData(
  (() => {
    const d = new Float32Array(counts.data.length);
    for (let c = 0; c < counts.nCells; c++) {
      let s = 0;
      for (let k = counts.indptr[c]!; k < counts.indptr[c + 1]!; k++) s += counts.data[k]!;
      for (let k = counts.indptr[c]!; k < counts.indptr[c + 1]!; k++) d[k] = (counts.data[k]! * 1e6) / s;
    }
    return d;
  })(),
);
const params = { doubletDetectionAndRemoval: false, pcValue: 10, hvgMethod: 'seurat_v3' as const };

describe('value kinds in the engine', () => {
  it('tells the kinds apart and leaves log-normalized values as they are', () => {
    expect(countsKind(counts)).toBe('counts');
    expect(countsKind(tpm.counts)).toBe('nonIntegerCounts');
    expect(countsKind(logged.counts)).toBe('logNormalized');
    expect(Array.from(logNormalize(logged.counts, 'logNormalized').data)).toEqual(
      Array.from(logged.counts.data),
    );
    // TPM scaled per cell normalizes to the same values as the counts it came from
    const a = logNormalize(tpm.counts).data;
    const b = logNormalize(counts).data;
    let worst = 0;
    for (let k = 0; k < a.length; k++) worst = Math.max(worst, Math.abs(a[k]! - b[k]!));
    expect(worst).toBeLessThan(1e-4);
  });

  it('log-normalized and TPM-like inputs recover the planted clusters', async () => {
    const truth = Array.from(syn.truth);
    const run = async (dataset: typeof logged) => {
      // the same permissive QC for every kind: the value kinds, not the filters, are compared
      const r = await runAnalysis([{ name: 's', dataset }], {
        ...params,
        expressedGeneRange: { state: 'manual', range: [0, 1e6] },
        expressedUmiRange: { state: 'manual', range: [0, 1e9] },
      });
      expect(r.counts.nCells).toBe(400);
      return adjustedRandIndex(r.obs.cluster!.values as string[], truth);
    };
    const fromLog = await run(logged);
    const fromTpm = await run(tpm);
    expect(fromLog).toBeGreaterThan(0.9);
    expect(fromTpm).toBeGreaterThan(0.9);
  }, 300_000);
});
