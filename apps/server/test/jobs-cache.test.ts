import { describe, expect, it } from 'vitest';
import { ANALYSIS_DEFAULTS } from '@cellcloud/contracts/analysis-params';
import { resultCacheKey } from '../src/services/jobs-cache';

/** The result-cache key: inputs + normalized parameters + engine version. */
describe('result cache key', () => {
  const samples = [
    { contentHash: 'aaa', name: 'S1', group: 'G1' },
    { contentHash: 'bbb', name: 'S2', group: 'G2' },
  ];

  it('is the same for parameters that differ only by defaults or key order', () => {
    // the defaults spelled out, read from their one source (docs/defaults.md)
    const { clusterResolution, algorithm, numberOfHighlyVariableGenes } = ANALYSIS_DEFAULTS;
    const a = resultCacheKey({ samples, params: {} }, '1.0.0');
    const b = resultCacheKey(
      {
        samples,
        params: { clusterResolution, algorithm, numberOfHighlyVariableGenes },
      },
      '1.0.0',
    );
    const c = resultCacheKey(
      {
        samples,
        params: { numberOfHighlyVariableGenes, algorithm, clusterResolution },
      },
      '1.0.0',
    );
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(b).toBe(a);
    expect(c).toBe(a);
  });

  it('changes with any parameter, input content, sample label or engine version', () => {
    const base = resultCacheKey({ samples, params: {} }, '1.0.0');
    expect(resultCacheKey({ samples, params: { clusterResolution: 1.2 } }, '1.0.0')).not.toBe(base);
    expect(
      resultCacheKey({ samples: [{ ...samples[0]!, contentHash: 'ccc' }, samples[1]!], params: {} }, '1.0.0'),
    ).not.toBe(base);
    expect(
      resultCacheKey({ samples: [{ ...samples[0]!, name: 'X1' }, samples[1]!], params: {} }, '1.0.0'),
    ).not.toBe(base);
    expect(resultCacheKey({ samples: [samples[1]!, samples[0]!], params: {} }, '1.0.0')).not.toBe(base);
    expect(resultCacheKey({ samples, params: {} }, '1.0.1')).not.toBe(base);
  });

  it('rejects parameters the analysis schema does not know', () => {
    expect(() => resultCacheKey({ samples, params: { bogus: 1 } }, '1.0.0')).toThrow();
  });
});
