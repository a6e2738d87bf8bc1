import { describe, expect, it } from 'vitest';
import { wizardDraft } from '@cellcloud/contracts/wizard';
import { optionsStepErrors } from '../../src/features/wizard/stepRules';

/** SPEC §5 in the wizard's step 3 (issue 13): annotation needs a tissue type; reference annotation a reference. */
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
