import { describe, expect, it } from 'vitest';
import type { Config } from '../src/config';
import { chooseAnalysisPath } from '../src/jobs/runner-child-budget';
import { PermanentJobError } from '../src/jobs/runner-tracked';

// Issue 33: from STREAMED_MIN_CELLS input cells (200k; CELLCLOUD_STREAMED_MIN_CELLS overrides) an
// analysis runs out of core under the streamed estimate; options without a streamed version stay
// in memory, and are refused with a message naming them when that does not fit.
const GiB = 2 ** 30;
const at = (bytes: number, streamedMinCells?: number) =>
  ({ workerMemoryBytes: bytes, streamedMinCells }) as Config;
// an atlas of 50k-cell samples, ≈ 1,480 non-zeros per cell (bench:engine store100k … synth1m)
const atlas = (cells: number, params = {}) => ({
  cells,
  genes: 20_000,
  nnz: cells * 1480,
  largestSampleNnz: 50_000 * 1480,
  releaseSamples: true,
  params,
});

describe('chooseAnalysisPath (analysis.run)', () => {
  it('runs in memory below the threshold and out of core from it', () => {
    expect(chooseAnalysisPath(at(8 * GiB), atlas(100_000))).toEqual({
      streamed: false,
      writeAlongside: true,
    });
    expect(chooseAnalysisPath(at(8 * GiB), atlas(1_000_000))).toEqual({ streamed: true });
    // the configured threshold (tests lower it to 1)
    expect(chooseAnalysisPath(at(8 * GiB, 1), atlas(100_000))).toEqual({ streamed: true });
  });

  it('keeps options without a streamed version in memory, refused with their names when too big', () => {
    const cellCycle = { removeCellCycleEffects: true };
    expect(chooseAnalysisPath(at(8 * GiB, 1), atlas(100_000, cellCycle)).streamed).toBe(false);
    let caught: unknown;
    try {
      chooseAnalysisPath(at(8 * GiB), atlas(1_000_000, cellCycle));
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(PermanentJobError);
    expect((caught as PermanentJobError).messageKey).toBe('jobs.failure.memoryNotStreamed');
    expect((caught as PermanentJobError).message).toMatch(/cell-cycle regression/);
  });

  it('refuses an out-of-core job over the worker budget with the memory failure', () => {
    expect(() => chooseAnalysisPath(at(2 * GiB), atlas(1_000_000))).toThrow(/WORKER_MEMORY_MB/);
  });
});
