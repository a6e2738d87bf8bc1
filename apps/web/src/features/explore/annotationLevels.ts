import type { ArtifactManifest } from '@cellcloud/contracts/artifacts';
import { LEVEL_KEYS } from './i18nKeys';

/** docs/product/entities.md#annotation-levels annotation levels in display order; other categorical columns follow alphabetically. */
export const ANNOTATION_LEVELS = [
  'annot_full',
  'annot_sub',
  'annot_sub2',
  'annot_article',
  'annot_auto',
  'cluster',
  'seurat_clusters',
  'Sample ID',
] as const;

/** i18n key (explore namespace) of a known level, or null to show the raw column name. */
export function levelLabelKey(key: string): string | null {
  return LEVEL_KEYS[key] ?? null;
}

export type CategoricalObs = Extract<ArtifactManifest['obs'][number], { kind: 'categorical' }>;

export function categoricalColumns(m: ArtifactManifest): CategoricalObs[] {
  const cats = m.obs.filter((o): o is CategoricalObs => o.kind === 'categorical');
  const rank = (k: string) => {
    const i = (ANNOTATION_LEVELS as readonly string[]).indexOf(k);
    return i < 0 ? ANNOTATION_LEVELS.length : i;
  };
  return cats.sort((a, b) => rank(a.key) - rank(b.key) || a.key.localeCompare(b.key));
}

/** Column holding the sample of each cell, if the result has one. */
export function sampleColumn(m: ArtifactManifest): CategoricalObs | undefined {
  return categoricalColumns(m).find((o) => /^(Sample ID|sample|sample_id|batch|orig\.ident)$/i.test(o.key));
}

/** Default grouping: the finest curated level present, else the raw cluster. */
export function defaultGroupColumn(m: ArtifactManifest): CategoricalObs | undefined {
  const cats = categoricalColumns(m);
  return cats.find((o) => o.key === 'cluster') ?? cats.find((o) => o.key !== sampleColumn(m)?.key) ?? cats[0];
}

export const EMBEDDING_ORDER = ['umap', 'tsne', 'umap3D', 'tsne3D', 'spatial', 'pca'];

export function embeddingChoices(m: ArtifactManifest): ArtifactManifest['embeddings'] {
  const rank = (n: string) => (EMBEDDING_ORDER.indexOf(n) < 0 ? 99 : EMBEDDING_ORDER.indexOf(n));
  return [...m.embeddings].sort((a, b) => rank(a.name) - rank(b.name));
}
