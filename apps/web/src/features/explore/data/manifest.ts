import { artifactManifest, type ArtifactManifest } from '@cellcloud/contracts/artifacts';
import { ArtifactFormatError } from './decode';

/*
 * The manifest check runs on the page (ArtifactClient.manifest), whose bundle has zod already: the
 * artifact worker's script stays small (zod was two thirds of it) and starts sooner.
 */

/** Validates manifest.json; the message names the offending field so the result can be rewritten. */
export function parseManifest(json: unknown): ArtifactManifest {
  const parsed = artifactManifest.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ArtifactFormatError(
      `manifest.json is not a valid explorer manifest (${issue?.path.join('.') ?? '?'}: ${issue?.message ?? ''}); re-run the analysis to rewrite its artifacts`,
    );
  }
  return parsed.data;
}
