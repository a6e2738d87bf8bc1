import { describe, expect, it } from 'vitest';
import { analysisParams } from '@cellcloud/contracts/analysis-params';
import { draftToParams } from '@cellcloud/contracts/wizard';
import { emptyDraft } from '../../src/features/wizard/emptyDraft';

/**
 * One source of defaults (docs/defaults.md): a wizard submission with every field left as the web
 * form starts it produces exactly the parameters the CLI runs with no --params (`{}` plus the
 * species detected from the genes), through the same conversion the server applies on submit
 * (services/jobs.ts: analysisParams.parse(draftToParams(draft.param, species))).
 */
describe('wizard defaults', () => {
  it.each(['Homo sapiens', 'Mus musculus'] as const)(
    'untouched wizard = CLI with no flags (%s)',
    (species) => {
      const submitted = analysisParams.parse(draftToParams(emptyDraft().param, species));
      const cli = analysisParams.parse({ species });
      expect(submitted).toEqual(cli);
      expect(submitted.clusterResolution).toBe(0.5);
    },
  );
});
