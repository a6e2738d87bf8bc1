import { describe, expect, it } from 'vitest';
import { analysisParams, PLATE_PRESET } from '@cellcloud/contracts/analysis-params';
import { applyPreset, draftToParams } from '@cellcloud/contracts/wizard';
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

  // issue 32: plate-based samples — the wizard's automatic plate preset = the CLI on plate data
  // (which spreads PLATE_PRESET under its parameter file), and switching back restores the defaults
  it('plate preset: wizard = CLI with no flags on plate-based samples', () => {
    const plate = applyPreset(emptyDraft().param, 'plate');
    const submitted = analysisParams.parse(draftToParams(plate, 'Homo sapiens'));
    expect(submitted).toEqual(analysisParams.parse({ ...PLATE_PRESET, species: 'Homo sapiens' }));
    expect(submitted.doubletDetectionAndRemoval).toBe(false);
    expect(submitted.expressedUmiRange.range[1]).toBeGreaterThan(1e7);
    expect(applyPreset(plate, 'droplet')).toEqual(emptyDraft().param);
  });
});
