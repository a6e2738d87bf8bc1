import { Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { ArtifactManifest } from '@cellcloud/contracts/artifacts';
import { embeddingChoices } from '../annotationLevels';
import { LAYOUT_KEYS } from '../i18nKeys';

/**
 * The layouts a result left out by default (manifest `layoutsNotComputed`, docs/artifacts.md):
 * the out-of-core run makes only the 2-D UMAP above 200,000 input cells. The embedding choice
 * lists them as unavailable and says why, in the reader's language.
 */

/** The layouts the manifest says were not computed and that it has no file for. */
export function missingLayouts(m: ArtifactManifest): string[] {
  const present = new Set(m.embeddings.map((e) => e.name));
  return (m.layoutsNotComputed?.names ?? []).filter((n) => !present.has(n));
}

/** The embedding choice's options, by their readable names: the result's embeddings, then the missing layouts, disabled. */
export function embeddingOptions(
  m: ArtifactManifest,
  t: TFunction,
): { value: string; label: string; disabled?: boolean }[] {
  return [
    ...embeddingChoices(m).map((e) => ({ value: e.name, label: layoutName(e.name, t) })),
    ...missingLayouts(m).map((name) => ({
      value: `missing:${name}`,
      label: t('viewer.notComputed', { name: layoutName(name, t) }),
      disabled: true,
    })),
  ];
}

/** A layout's name for the reader ("2-D UMAP", "三维 t-SNE"); an embedding of another name as stored. */
function layoutName(name: string, t: TFunction): string {
  return LAYOUT_KEYS[name] ? t(LAYOUT_KEYS[name]) : name;
}

/** Why the layouts are missing, one paragraph in the reader's language; null when none are. */
export function layoutsNotComputedText(m: ArtifactManifest, t: TFunction, locale: string): string | null {
  const info = m.layoutsNotComputed;
  const names = missingLayouts(m);
  if (!info || names.length === 0) return null;
  const number = new Intl.NumberFormat(locale);
  const list = new Intl.ListFormat(locale, { type: 'conjunction' });
  return t('viewer.layoutsNotComputed', {
    names: list.format(names.map((n) => layoutName(n, t))),
    maxCells: number.format(info.maxCells),
    cells: number.format(info.cells),
  });
}

/** The reason under the embedding choice's options (and in its hint). */
export function LayoutsNotComputedNote({ manifest }: { manifest: ArtifactManifest }) {
  const { t, i18n } = useTranslation('explore');
  const text = layoutsNotComputedText(manifest, t, i18n.language);
  if (!text) return null;
  return (
    <Typography.Paragraph
      type="secondary"
      data-testid="layouts-not-computed"
      style={{ maxWidth: 360, margin: 0, padding: '6px 12px', fontSize: 12 }}
    >
      {text}
    </Typography.Paragraph>
  );
}
