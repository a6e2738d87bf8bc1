import type { i18n as I18n, TFunction } from 'i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { artifactManifest, type ArtifactManifest } from '@cellcloud/contracts/artifacts';
import { TaskLaunchProvider, type TaskLaunch } from '../../src/features/explore/tasks/taskLaunch';
import {
  embeddingOptions,
  layoutActions,
  LayoutsNotComputedNote,
  layoutsNotComputedText,
} from '../../src/features/explore/viewer/layoutsNotComputed';
import { ViewerToolbar, type ViewerSettings } from '../../src/features/explore/viewer/ViewerToolbar';
import { LOCALES, reactI18n } from './reactI18n';

/**
 * Issue 33: above 200,000 input cells the out-of-core run computes only the 2-D UMAP, and the
 * manifest says so (`layoutsNotComputed`). The explorer's embedding choice lists t-SNE and the 3-D
 * layouts as unavailable and says why, in both languages — checked with the REAL explore
 * translations, rendered by React to HTML (the repo has no DOM for component tests).
 */
let i18n: I18n;
const ts = {} as Record<(typeof LOCALES)[number], TFunction>;
beforeAll(async () => {
  i18n = await reactI18n(['explore']);
  for (const l of LOCALES) ts[l] = i18n.getFixedT(l, 'explore');
});

/** A 1M-cell out-of-core result's manifest: the 2-D UMAP only, as write-outputs writes it. */
function manifest(extra: Partial<ArtifactManifest> = {}): ArtifactManifest {
  return artifactManifest.parse({
    formatVersion: 2,
    engineVersion: 'test',
    nCells: 980_000,
    nGenes: 2,
    species: 'human',
    embeddings: [{ name: 'umap', dims: 2, file: 'embeddings/umap.q24' }],
    obs: [{ kind: 'categorical', key: 'cluster', file: 'obs/cluster.u16', dtype: 'u16', labels: ['0'] }],
    genes: { file: 'genes.json', count: 2 },
    layers: [],
    markers: [],
    layoutsNotComputed: {
      names: ['tsne', 'umap3D', 'tsne3D'],
      reason: 'cells',
      cells: 1_000_000,
      maxCells: 200_000,
    },
    ...extra,
  });
}

// no key, template or internal layout name reaches the reader
const LEAK = /\{\{|viewer\.|umap3D|tsne3D|undefined/;

describe('layouts not computed, in the embedding choice', () => {
  it('lists the missing layouts after the computed ones, disabled', () => {
    const opts = embeddingOptions(manifest(), ts['en-US']);
    expect(opts.map((o) => [o.value, Boolean(o.disabled)])).toEqual([
      ['umap', false],
      ['missing:tsne', true],
      ['missing:umap3D', true],
      ['missing:tsne3D', true],
    ]);
    expect(opts.map((o) => o.label)).toEqual([
      '2-D UMAP',
      't-SNE (not computed)',
      '3-D UMAP (not computed)',
      '3-D t-SNE (not computed)',
    ]);
    expect(embeddingOptions(manifest(), ts['zh-CN'])[1]!.label).toBe('t-SNE（未计算）');
    expect(embeddingOptions(manifest(), ts['zh-CN'])[0]!.label).toBe('二维 UMAP');
  });

  it('says why in English, with the limit and the analysis’ cells', () => {
    const text = layoutsNotComputedText(manifest(), ts['en-US'], 'en-US')!;
    expect(text).toContain('above 200,000 input cells (this analysis had 1,000,000)');
    expect(text).toContain('t-SNE, 3-D UMAP, and 3-D t-SNE');
    expect(text).toContain('at least 17 minutes and about 11 GB of memory');
    expect(text).not.toMatch(LEAK);
  });

  it('says why in Chinese', () => {
    const text = layoutsNotComputedText(manifest(), ts['zh-CN'], 'zh-CN')!;
    expect(text).toContain('输入细胞数超过 200,000 时默认不计算');
    expect(text).toContain('本分析有 1,000,000 个输入细胞');
    expect(text).toContain('t-SNE、三维 UMAP和三维 t-SNE');
    expect(text).toContain('至少多用 17 分钟');
    expect(text).not.toMatch(LEAK);
  });

  it('says nothing for a manifest without the field (older results) or with the layouts present', () => {
    const old = manifest({ layoutsNotComputed: undefined });
    expect(layoutsNotComputedText(old, ts['en-US'], 'en-US')).toBeNull();
    expect(embeddingOptions(old, ts['en-US']).map((o) => o.value)).toEqual(['umap']);
    const all = manifest({
      embeddings: ['umap', 'tsne', 'umap3D', 'tsne3D'].map((name) => ({
        name,
        dims: name.endsWith('3D') ? 3 : 2,
        file: `embeddings/${name}.q24`,
      })),
    });
    expect(layoutsNotComputedText(all, ts['en-US'], 'en-US')).toBeNull();
    expect(embeddingOptions(all, ts['en-US']).every((o) => !o.disabled)).toBe(true);
  });

  it('renders the reason in the toolbar’s hint and the choice’s note, in the reader’s language', async () => {
    const settings: ViewerSettings = {
      embedding: 'umap',
      colourBy: { kind: 'obs', key: 'cluster' },
      layer: 'normalized',
      palette: 'Default',
      labelPosition: 'onSide',
      colourMode: 'default',
      mouseMode: 'panZoom',
      yaw: 0,
      pitch: 0,
    };
    for (const l of LOCALES) {
      await i18n.changeLanguage(l);
      const expected = layoutsNotComputedText(manifest(), ts[l], l)!;
      const render = (m: ArtifactManifest) =>
        renderToStaticMarkup(
          <I18nextProvider i18n={i18n}>
            <ViewerToolbar
              manifest={m}
              subsets={[]}
              symbols={[]}
              settings={settings}
              is3D={false}
              onChange={() => undefined}
              onExport={() => undefined}
            />
            <LayoutsNotComputedNote manifest={m} />
          </I18nextProvider>,
        );
      const html = render(manifest());
      expect(html).toContain('data-testid="layouts-not-computed-hint"');
      expect(html).toContain(`aria-label="${expected}"`);
      expect(html).toContain(`data-testid="layouts-not-computed"`);
      expect(html).toContain(`>${expected}</`);
      const old = render(manifest({ layoutsNotComputed: undefined }));
      expect(old).not.toContain('layouts-not-computed');
    }
  });

  it('offers to compute each missing layout with the layout task, the 3-D t-SNE only within its limit', async () => {
    expect(layoutActions(manifest())).toEqual([
      { name: 'tsne', tooManyCells: false },
      { name: 'umap3D', tooManyCells: false },
      { name: 'tsne3D', tooManyCells: true },
    ]);
    expect(layoutActions(manifest({ nCells: 2_000 })).every((a) => !a.tooManyCells)).toBe(true);
    const launched: [string, Record<string, unknown>][] = [];
    const launcher: TaskLaunch = {
      can: (task) => task === 'layout',
      launch: (task, params) => void launched.push([task, params]),
      request: null,
    };
    const expectedText = {
      'en-US': [
        'Compute the t-SNE now',
        'Compute the 3-D UMAP now',
        'The 3-D t-SNE is made for up to 3,000 cells only (this result has 980,000).',
      ],
      'zh-CN': [
        '现在计算t-SNE',
        '现在计算三维 UMAP',
        '三维 t-SNE仅适用于不超过 3,000 个细胞（本结果有 980,000 个）。',
      ],
    } as const;
    for (const l of LOCALES) {
      await i18n.changeLanguage(l);
      const html = renderToStaticMarkup(
        <I18nextProvider i18n={i18n}>
          <TaskLaunchProvider value={launcher}>
            <LayoutsNotComputedNote manifest={manifest()} />
          </TaskLaunchProvider>
        </I18nextProvider>,
      );
      expect(html).toContain('data-testid="compute-layout-tsne"');
      expect(html).toContain('data-testid="compute-layout-umap3D"');
      expect(html).not.toContain('compute-layout-tsne3D');
      expect(html).toContain('data-testid="layout-limit-tsne3D"');
      for (const text of expectedText[l]) expect(html).toContain(text);
      expect(html.replace(/data-testid="[^"]*"/g, '')).not.toMatch(LEAK);
      // without a launcher (a shared public dataset, no server) the note has no action
      const bare = renderToStaticMarkup(
        <I18nextProvider i18n={i18n}>
          <LayoutsNotComputedNote manifest={manifest()} />
        </I18nextProvider>,
      );
      expect(bare).not.toContain('compute-layout-');
    }
  });
});
