import { z } from 'zod';
import { ApiError } from './client';
import { getSession } from './session';

/**
 * `artifacts/annotation.json` of an analysis annotated by the wizard's "Cell annotation:
 * Automatic" (issue 13, written by the analysis job): the annotation summary, the reference's
 * marker genes per label and per-cluster dot-plot data. Absent (404 → null) when the analysis was
 * not annotated automatically.
 */
export const annotationArtifact = z.object({
  /** Set when the in-analysis annotation failed (key of the annotate task's messages, e.g. annotate.tissueRequired). */
  failure: z
    .object({ key: z.string(), params: z.record(z.string(), z.union([z.string(), z.number()])) })
    .optional(),
  summary: z
    .object({
      reference: z.string(),
      species: z.string(),
      tissue: z.string(),
      markerSource: z.string(),
      clusters: z.array(
        z.object({
          cluster: z.string(),
          label: z.string(),
          confidence: z.number(),
          markerLabel: z.string().optional(),
        }),
      ),
    })
    .passthrough()
    .optional(),
  markers: z.record(z.string(), z.array(z.string())).default({}),
  dotplot: z
    .object({
      clusters: z.array(z.string()),
      genes: z.array(z.string()),
      labelOfGene: z.record(z.string(), z.string()),
      mean: z.array(z.array(z.number())),
      fraction: z.array(z.array(z.number())),
    })
    .nullable()
    .default(null),
});
export type AnnotationArtifact = z.infer<typeof annotationArtifact>;

/** The artifact is a plain file (no API envelope), read like the explorer's other artifacts. */
export async function fetchAnnotationArtifact(datasetId: string): Promise<AnnotationArtifact | null> {
  const headers: Record<string, string> = {};
  const token = getSession()?.token;
  if (token) headers['access-token'] = token;
  const res = await fetch(`/api/user_datasets/${encodeURIComponent(datasetId)}/artifacts/annotation.json`, {
    headers,
  });
  if (res.status === 404) return null;
  if (!res.ok) throw new ApiError(res.status, res.status, res.statusText);
  const parsed = annotationArtifact.safeParse(await res.json());
  return parsed.success ? parsed.data : null;
}
