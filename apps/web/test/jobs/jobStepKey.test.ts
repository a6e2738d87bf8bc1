import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { jobStepKey } from '../../src/features/jobs/jobStepKey';

const locales = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/i18n/locales');
const steps = (loc: string) =>
  (
    JSON.parse(readFileSync(path.join(locales, loc, 'jobs.json'), 'utf8')) as {
      steps: Record<string, string>;
    }
  ).steps;

const known = (k: string) => k.replace(/^jobs:steps\./, '') in steps('en-US');

describe('the running step of a job list (issue 31: zh-CN showed "步骤: start")', () => {
  it('known steps have a label in both languages, never the internal name in Chinese', () => {
    for (const s of ['start', 'inputs', 'pca', 'umap3D', 'markers', 'write', 'publish']) {
      const key = jobStepKey(s, known)!;
      expect(key).toBe(`jobs:steps.${s}`);
      const name = key.split('.')[1]!;
      expect(steps('en-US')[name]).toBeTruthy();
      expect(steps('zh-CN')[name]).toBeTruthy();
      if (!/^[A-Za-z0-9 -]*(PCA|UMAP|t-SNE)$/.test(steps('zh-CN')[name]!))
        expect(steps('zh-CN')[name]).toMatch(/[\u4e00-\u9fff]/);
    }
  });
  it('a step of its own (a task stage) shows no step rather than an internal name', () => {
    expect(jobStepKey('cellphonedb-permutations', known)).toBeNull();
    expect(jobStepKey(null, known)).toBeNull();
  });
});
