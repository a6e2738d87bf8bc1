import { describe, expect, it } from 'vitest';
import type { Config } from '../src/config';
import { chooseWriting } from '../src/jobs/runner-child-budget';
import { PermanentJobError } from '../src/jobs/runner-tracked';

// Issue 14: 500k cells in 12 GiB — the job child writes its matrices alongside the embeddings when
// that fits the worker budget, after the pipeline (normalized values let go) when only that fits.
const GiB = 2 ** 30;
const at = (bytes: number) => ({ workerMemoryBytes: bytes }) as Config;
// synth500k's sizes (docs/benchmarks/engine.md): 10 samples of 50k cells, 741.8M non-zeros
const synth500k = {
  cells: 500_000,
  genes: 20_000,
  nnz: 741.84e6,
  largestSampleNnz: 74.2e6,
  releaseSamples: true,
};

describe('chooseWriting (analysis.run, public.ingest)', () => {
  it('writes alongside when that fits, after when only that fits the 12 GiB budget', () => {
    expect(chooseWriting(at(16 * GiB), synth500k)).toBe(true);
    expect(chooseWriting(at(12 * GiB), synth500k)).toBe(false);
    expect(chooseWriting(at(12 * GiB), { ...synth500k, cells: 100_000, nnz: 148e6 })).toBe(true);
  });

  it('refuses with the translated memory failure when neither fits', () => {
    let caught: unknown;
    try {
      chooseWriting(at(8 * GiB), synth500k);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(PermanentJobError);
    const e = caught as PermanentJobError;
    expect(e.messageKey).toBe('jobs.failure.memory');
    expect(e.params).toMatchObject({ limit: 8192 });
    expect(e.message).toMatch(/WORKER_MEMORY_MB/);
  });
});
