import { InfoCircleOutlined } from '@ant-design/icons';
import { Button, Radio, Select, Slider, Space, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ArtifactManifest } from '@cellcloud/contracts/artifacts';
import type { SubsetView } from '@cellcloud/contracts/explore';
import { categoricalColumns, levelLabelKey } from '../annotationLevels';
import { GeneSearch } from '../GeneSearch';
import { paletteNames, type PaletteName } from './palettes';
import type { ColourBy } from './useColouring';
import { embeddingOptions, LayoutsNotComputedNote, layoutsNotComputedText } from './layoutsNotComputed';
import { LAYER_KEYS } from '../i18nKeys';

export interface ViewerSettings {
  embedding: string;
  colourBy: ColourBy;
  layer: 'counts' | 'normalized';
  palette: PaletteName;
  labelPosition: 'onCluster' | 'onSide';
  colourMode: 'default' | 'customize';
  mouseMode: 'panZoom' | 'lasso';
  yaw: number;
  pitch: number;
}

interface Props {
  manifest: ArtifactManifest;
  subsets: SubsetView[];
  symbols: string[];
  settings: ViewerSettings;
  is3D: boolean;
  onChange: (patch: Partial<ViewerSettings>) => void;
  onExport: () => void;
}

/** Embedding, colour-by (annotation level or gene), layer, palette, labels, colour mode, lasso, export. */
export function ViewerToolbar({ manifest, subsets, symbols, settings, is3D, onChange, onExport }: Props) {
  const { t, i18n } = useTranslation('explore');
  const notComputed = layoutsNotComputedText(manifest, t, i18n.language);
  const obsOptions = [
    ...categoricalColumns(manifest).map((o) => {
      const k = levelLabelKey(o.key);
      return { value: o.key, label: k ? t(k) : o.key };
    }),
    ...subsets.map((sub) => ({ value: `subset:${sub.id}`, label: t('subsets.option', { name: sub.name }) })),
  ];
  const colourValue =
    settings.colourBy.kind === 'obs'
      ? settings.colourBy.key
      : settings.colourBy.kind === 'subset'
        ? `subset:${settings.colourBy.subset.id}`
        : undefined;
  const layers = manifest.layers.map((l) => ({ value: l.name, label: t(LAYER_KEYS[l.name]) }));
  return (
    <Space wrap size="small" style={{ marginBottom: 8 }}>
      <Select
        data-testid="embedding-select"
        value={settings.embedding}
        style={{ width: 120 }}
        popupMatchSelectWidth={false}
        options={embeddingOptions(manifest, t)}
        popupRender={(menu) => (
          <>
            {menu}
            <LayoutsNotComputedNote manifest={manifest} />
          </>
        )}
        onChange={(embedding) => onChange({ embedding })}
      />
      {notComputed && (
        <Tooltip title={notComputed}>
          <InfoCircleOutlined data-testid="layouts-not-computed-hint" aria-label={notComputed} />
        </Tooltip>
      )}
      <Select
        data-testid="colour-by-select"
        value={colourValue}
        placeholder={settings.colourBy.kind === 'gene' ? settings.colourBy.symbol : t('viewer.colourBy')}
        style={{ width: 170 }}
        options={obsOptions}
        onChange={(key: string) => {
          const sub = key.startsWith('subset:') ? subsets.find((x) => `subset:${x.id}` === key) : undefined;
          onChange({ colourBy: sub ? { kind: 'subset', subset: sub } : { kind: 'obs', key } });
        }}
      />
      <GeneSearch
        symbols={symbols}
        width={150}
        onPick={(g) =>
          onChange({ colourBy: { kind: 'gene', gene: g.index, symbol: g.symbol, layer: settings.layer } })
        }
      />
      {layers.length > 0 && (
        <Select
          data-testid="layer-select"
          value={settings.layer}
          style={{ width: 130 }}
          options={layers}
          onChange={(layer: 'counts' | 'normalized') =>
            onChange({
              layer,
              ...(settings.colourBy.kind === 'gene' ? { colourBy: { ...settings.colourBy, layer } } : {}),
            })
          }
        />
      )}
      <Select
        data-testid="palette-select"
        value={settings.palette}
        style={{ width: 100 }}
        options={paletteNames.map((p) => ({
          value: p,
          label: p === 'Default' ? t('viewer.paletteDefault') : p,
        }))}
        onChange={(palette: PaletteName) => onChange({ palette })}
      />
      <Radio.Group
        size="small"
        value={settings.labelPosition}
        onChange={(e) => onChange({ labelPosition: e.target.value as ViewerSettings['labelPosition'] })}
      >
        <Radio.Button value="onCluster">{t('viewer.labelsOnCluster')}</Radio.Button>
        <Radio.Button value="onSide">{t('viewer.labelsOnSide')}</Radio.Button>
      </Radio.Group>
      <Radio.Group
        size="small"
        value={settings.colourMode}
        onChange={(e) => onChange({ colourMode: e.target.value as ViewerSettings['colourMode'] })}
      >
        <Radio.Button value="default">{t('viewer.colourDefault')}</Radio.Button>
        <Radio.Button value="customize" data-testid="colour-customize">
          {t('viewer.colourCustomize')}
        </Radio.Button>
      </Radio.Group>
      <Tooltip title={t('viewer.lassoHint')}>
        <Button
          data-testid="lasso-toggle"
          type={settings.mouseMode === 'lasso' ? 'primary' : 'default'}
          onClick={() => onChange({ mouseMode: settings.mouseMode === 'lasso' ? 'panZoom' : 'lasso' })}
        >
          {t('viewer.lasso')}
        </Button>
      </Tooltip>
      <Button data-testid="export-png" onClick={onExport}>
        {t('viewer.exportPng')}
      </Button>
      {is3D && (
        <Space size="small">
          <span>{t('viewer.rotate')}</span>
          <Slider
            style={{ width: 90 }}
            min={-180}
            max={180}
            value={settings.yaw}
            onChange={(yaw: number) => onChange({ yaw })}
          />
          <Slider
            style={{ width: 90 }}
            min={-90}
            max={90}
            value={settings.pitch}
            onChange={(pitch: number) => onChange({ pitch })}
          />
        </Space>
      )}
    </Space>
  );
}
