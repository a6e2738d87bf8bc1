import type { WizardSample } from '@cellcloud/contracts';
import type { AppContext } from '../context';
import { AppError } from '../errors';
import { listAnalysableSamples } from './files/analysable';

/** A selected sample resolved against the user's Completed uploads. */
export interface ResolvedSample {
  id: string;
  name: string;
  group: string;
  species: string | null;
  cells: number;
  contentHash: string;
  datasetKey: string;
}

/**
 * Resolves the wizard's selected samples (docs/product/states.md#wizard, docs/product/validation.md): each must be one of the user's Completed,
 * usable uploads; the content hash comes from the canonical dataset's manifest.
 */
export async function resolveSamples(
  ctx: AppContext,
  userId: string,
  selected: WizardSample[],
): Promise<ResolvedSample[]> {
  const available = new Map((await listAnalysableSamples(ctx, userId)).map((s) => [s.uploadId, s]));
  const out: ResolvedSample[] = [];
  for (const sel of selected) {
    const s = available.get(sel.id);
    if (!s) throw new AppError('VALIDATION_FAILED', { detail: sel.id }, 'wizard.samples.notAnalysable');
    const manifest = JSON.parse(new TextDecoder().decode(await ctx.storage.getBytes(s.manifestKey))) as {
      contentSha256?: string;
    };
    out.push({
      id: sel.id,
      name: sel.name || s.sampleName,
      group: sel.group,
      species: s.properties.species,
      cells: s.properties.cells,
      contentHash: manifest.contentSha256 ?? `${s.uploadId}`,
      datasetKey: s.datasetKey,
    });
  }
  return out;
}

/** docs/product/validation.md#species: the selected samples must share one species; the wizard's choice fills an unknown one. */
export function sharedSpecies(samples: ResolvedSample[], chosen: string | undefined): string {
  const known = new Set(samples.map((s) => s.species).filter((s): s is string => !!s));
  if (known.size > 1)
    throw new AppError('VALIDATION_FAILED', { detail: [...known].join(', ') }, 'wizard.species.mixed');
  const species = [...known][0] ?? chosen;
  if (!species) throw new AppError('VALIDATION_FAILED', {}, 'wizard.species.required');
  if (chosen && known.size === 1 && chosen !== species)
    throw new AppError('VALIDATION_FAILED', { detail: species }, 'wizard.species.mismatch');
  return species;
}
