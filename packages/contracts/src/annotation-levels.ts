import { z } from 'zod';
import { clusterName, subsetName } from './explore';

/**
 * docs/product/api.md#annotation-calls annotation calls (issue 13): `GET/POST observation_annotation`, `GET/POST
 * embedding_annotation`, `GET celltype_hierarchy2` under `/api/user_datasets/{id}/`.
 * Levels are the categorical obs of the analysis (annot_* automatic levels, the upload's own
 * columns, cluster, Sample ID…), completed tasks' categorical columns (source `task`: annot_auto,
 * annot_sub of a run from the tab) and the user's saved levels (subsets, key `subset:<id>`).
 */
export const annotationLevelView = z.object({
  key: z.string(),
  name: z.string(),
  source: z.enum(['analysis', 'task', 'saved']),
  labels: z.array(z.string()),
  counts: z.array(z.number().int()),
});
export type AnnotationLevelView = z.infer<typeof annotationLevelView>;

/** A hand edit saved as a NEW level: copy of `key` named `name`, labels renamed (equal names merge). */
export const saveAnnotationBody = z
  .object({
    key: z.string().min(1).max(200),
    name: subsetName,
    renames: z.record(z.string(), clusterName).default({}),
  })
  .strict();
export type SaveAnnotationBody = z.infer<typeof saveAnnotationBody>;

export const embeddingAnnotationQuery = z
  .object({
    key: z.string().min(1).max(200).default('annot_auto'),
    clusterKey: z.string().min(1).max(200).default('cluster'),
  })
  .strict();

/** Per cluster: the level's majority label and its share of the cluster (confidence). */
export const embeddingAnnotationAnswer = z.object({
  key: z.string(),
  clusterKey: z.string(),
  clusters: z.array(
    z.object({ cluster: z.string(), cells: z.number().int(), label: z.string(), confidence: z.number() }),
  ),
});

/** docs/product/entities.md#annotation-levels levels annot_full → annot_sub → annot_sub2: each label with its parent label (majority of its cells). */
export const celltypeHierarchyAnswer = z.object({
  levels: z.array(z.string()),
  nodes: z.array(
    z.object({
      level: z.string(),
      label: z.string(),
      cells: z.number().int(),
      parent: z.object({ level: z.string(), label: z.string() }).nullable(),
    }),
  ),
});
export type CelltypeHierarchyAnswer = z.infer<typeof celltypeHierarchyAnswer>;
