import { describe, expect, it } from 'vitest';
import { submitDraft, wizardDraft } from '../src/wizard';

/** docs/product/validation.md#required-fields: automatic annotation needs a tissue type ("specify tissue type"). */
describe('wizard annotation options', () => {
  const draft = (param: object) =>
    wizardDraft.parse({
      datasets: [{ id: 'u1', name: 'S1' }],
      param: { jobName: 'job_1', ...param },
    });
  const issues = (param: object) => {
    const r = submitDraft.safeParse(draft(param));
    return r.success ? [] : r.error.issues.map((i) => i.message);
  };

  it('automatic annotation without a tissue is refused with the SPEC message key; with one it passes that check', () => {
    expect(issues({ annotationType: 'auto', tissue: '  ' })).toContain('wizard.tissue.required');
    expect(issues({ annotationType: 'auto', tissue: 'PBMC' })).not.toContain('wizard.tissue.required');
    expect(issues({ annotationType: 'none' })).not.toContain('wizard.tissue.required');
  });
});
