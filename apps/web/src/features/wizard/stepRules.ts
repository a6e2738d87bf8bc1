import { NAME_PATTERN, type WizardDraft } from '@cellcloud/contracts/wizard';
import type { AnalysableSample } from '../../api/wizard';

/** Keys of the docs/product/validation.md#required-fields messages in the wizard namespace (ns="wizard"), translated by IntegratePage. */
export type RuleKey =
  | 'rules.selectSamples'
  | 'rules.jobNameRequired'
  | 'rules.nameInvalid'
  | 'rules.sampleNameRequired'
  | 'rules.nameExists'
  | 'rules.groupRequired'
  | 'rules.oneSpecies'
  | 'rules.speciesRequired'
  | 'rules.referenceRequired'
  | 'rules.tissueRequired';

/**
 * A sample name that passes the docs/product/validation.md#job-and-sample-names rule, proposed when a sample is selected: public datasets
 * are listed by their titles ("PBMC 3k healthy donor (public)"), whose other characters become
 * spaces ("PBMC 3k healthy donor public"); the user can still edit it.
 */
export function proposedSampleName(name: string): string {
  if (NAME_PATTERN.test(name)) return name;
  const cleaned = name
    .replace(/[^A-Za-z0-9_. ]+/g, ' ')
    .replace(/ {2,}/g, ' ')
    .trim()
    .slice(0, 100);
  return NAME_PATTERN.test(cleaned) ? cleaned : `_${cleaned}`.slice(0, 100);
}

const nameRule = (v: string, required: RuleKey): RuleKey | null =>
  !v.trim() ? required : NAME_PATTERN.test(v.trim()) ? null : 'rules.nameInvalid';

/** Step 1 checks (select samples, job name, sample and group names, one species). */
export function samplesStepErrors(d: WizardDraft, samples: AnalysableSample[]): RuleKey[] {
  const errors = new Set<RuleKey>();
  const job = nameRule(d.param.jobName, 'rules.jobNameRequired');
  if (job) errors.add(job);
  if (!d.datasets.length) errors.add('rules.selectSamples');
  const seen = new Set<string>();
  for (const s of d.datasets) {
    const e = nameRule(s.name, 'rules.sampleNameRequired');
    if (e) errors.add(e);
    if (seen.has(s.name)) errors.add('rules.nameExists');
    seen.add(s.name);
    if (d.datasets.length > 1) {
      const g = nameRule(s.group, 'rules.groupRequired');
      if (g) errors.add(g);
    }
  }
  const species = new Set(
    d.datasets.map((x) => samples.find((s) => s.id === x.id)?.species).filter((x): x is string => !!x),
  );
  if (species.size > 1) errors.add('rules.oneSpecies');
  if (d.datasets.length && species.size === 0 && !d.param.species) errors.add('rules.speciesRequired');
  return [...errors];
}

/** Step 3 checks (docs/product/validation.md#required-fields: a reference for reference annotation, a tissue type for any annotation). */
export function optionsStepErrors(d: WizardDraft): RuleKey[] {
  const errors: RuleKey[] = [];
  if (d.param.annotationType === 'reference' && !d.param.reference) errors.push('rules.referenceRequired');
  if (d.param.annotationType !== 'none' && !d.param.tissue.trim()) errors.push('rules.tissueRequired');
  return errors;
}
