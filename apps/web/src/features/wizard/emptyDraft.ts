import { draftParam, wizardDraft, type WizardDraft } from '@cellcloud/contracts/wizard';

/** A new wizard's draft: every field at the contract's default (docs/defaults.md). */
export const emptyDraft = (): WizardDraft => wizardDraft.parse({ param: draftParam.parse({}) });
