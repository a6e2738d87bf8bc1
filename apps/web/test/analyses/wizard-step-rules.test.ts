import { describe, expect, it } from 'vitest';
import { NAME_PATTERN, wizardDraft } from '@cellcloud/contracts/wizard';
import { optionsStepErrors, proposedSampleName } from '../../src/features/wizard/stepRules';

/** docs/product/validation.md in the wizard's step 3 (issue 13): annotation needs a tissue type; reference annotation a reference. */
describe('wizard step 3 rules', () => {
  const draft = (param: Record<string, unknown>) => wizardDraft.parse({ param });

  it('asks for the tissue type when automatic annotation is chosen', () => {
    expect(optionsStepErrors(draft({ annotationType: 'auto' }))).toEqual(['rules.tissueRequired']);
    expect(optionsStepErrors(draft({ annotationType: 'auto', tissue: '  ' }))).toEqual([
      'rules.tissueRequired',
    ]);
    expect(optionsStepErrors(draft({ annotationType: 'auto', tissue: 'blood' }))).toEqual([]);
  });

  it('asks for reference and tissue for reference annotation, nothing without annotation', () => {
    expect(optionsStepErrors(draft({ annotationType: 'reference' }))).toEqual([
      'rules.referenceRequired',
      'rules.tissueRequired',
    ]);
    expect(optionsStepErrors(draft({ annotationType: 'none' }))).toEqual([]);
  });
});

/** Issue 20: public datasets are listed by title; their proposed sample name passes the docs/product/validation.md#job-and-sample-names rule. */
describe('proposed sample names', () => {
  it('keeps a valid name and turns a public title into a valid one', () => {
    expect(proposedSampleName('ifnb_stim')).toBe('ifnb_stim');
    expect(proposedSampleName('PBMC 3k healthy donor (public)')).toBe('PBMC 3k healthy donor public');
    expect(proposedSampleName('10x: lung (2019)')).toBe('_10x lung 2019');
    for (const t of ['PBMC 3k (public)', '10x: lung', 'Ré-analyse—β', '((x))'])
      expect(NAME_PATTERN.test(proposedSampleName(t))).toBe(true);
  });
});
