import { Button, Space, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { ArtifactManifest } from '@cellcloud/contracts/artifacts';
import { layout as layoutTask } from '@cellcloud/tasks/contract';
import { useTaskLaunch } from '../tasks/taskLaunch';
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

/**
 * What the layout task (packages/tasks/src/layout) can compute of the missing layouts here: each
 * one it makes, or why not (the 3-D t-SNE above its cell limit).
 */
export function layoutActions(m: ArtifactManifest): { name: string; tooManyCells: boolean }[] {
  const kinds: readonly string[] = layoutTask.LAYOUT_KINDS;
  return missingLayouts(m)
    .filter((n) => kinds.includes(n))
    .map((name) => ({
      name,
      tooManyCells: name === 'tsne3D' && m.nCells > layoutTask.LAYOUT_TSNE3D_MAX_CELLS,
    }));
}

/**
 * The reason under the embedding choice's options (and in its hint), with an action per missing
 * layout that opens the layout task's run form preset to it (where tasks can run).
 */
export function LayoutsNotComputedNote({ manifest }: { manifest: ArtifactManifest }) {
  const { t, i18n } = useTranslation('explore');
  const launcher = useTaskLaunch();
  const text = layoutsNotComputedText(manifest, t, i18n.language);
  if (!text) return null;
  const actions = launcher?.can(layoutTask.definition.name) ? layoutActions(manifest) : [];
  const number = new Intl.NumberFormat(i18n.language);
  return (
    <div style={{ maxWidth: 360, padding: '6px 12px' }}>
      <Typography.Paragraph
        type="secondary"
        data-testid="layouts-not-computed"
        style={{ margin: 0, fontSize: 12 }}
      >
        {text}
      </Typography.Paragraph>
      {actions.length > 0 && (
        <Space orientation="vertical" size={2} style={{ marginTop: 4 }}>
          {actions.map((a) =>
            a.tooManyCells ? (
              <Typography.Text
                key={a.name}
                type="secondary"
                style={{ fontSize: 12 }}
                data-testid={`layout-limit-${a.name}`}
              >
                {t('viewer.layoutLimit', {
                  name: layoutName(a.name, t),
                  max: number.format(layoutTask.LAYOUT_TSNE3D_MAX_CELLS),
                  cells: number.format(manifest.nCells),
                })}
              </Typography.Text>
            ) : (
              <Button
                key={a.name}
                size="small"
                type="link"
                style={{ padding: 0, fontSize: 12 }}
                data-testid={`compute-layout-${a.name}`}
                // inside the select's drop-down: keep the focus so the click lands
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => launcher!.launch(layoutTask.definition.name, { layout: a.name })}
              >
                {t('viewer.computeLayout', { name: layoutName(a.name, t) })}
              </Button>
            ),
          )}
        </Space>
      )}
    </div>
  );
}
