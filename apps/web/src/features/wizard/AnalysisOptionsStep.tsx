import { Alert, Form, Input, InputNumber, Radio, Select, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { LIMITS } from '@cellcloud/contracts/constants';
import { RESOLUTION_BOUNDS } from '@cellcloud/contracts/clustering';
import { PLATE_PRESET } from '@cellcloud/contracts/analysis-params';
import { draftParam, looksPlateBased, type WizardPreset } from '@cellcloud/contracts/wizard';
import type { AnalysableSample } from '../../api/wizard';
import type { WizardState } from './useWizard';

const SCALE_HINT_CELLS = LIMITS.scaleHvgOnlyAboveCells;
const AMBIENT_MIN_CELLS = LIMITS.ambientMinCells;
/** A cleared number field falls back to the contract's default (one source: analysis-params.ts). */
const DEFAULTS = draftParam.parse({});

/** Step 3: every parent-analysis parameter (docs/product/entities.md#analysis-parameters) with its default and the docs/product/validation.md#analysis-rules guidance. */
export function AnalysisOptionsStep({ w, samples }: { w: WizardState; samples: AnalysableSample[] }) {
  const { t } = useTranslation('wizard');
  const p = w.draft.param;
  const chosen = w.draft.datasets
    .map((d) => samples.find((s) => s.id === d.id))
    .filter((s): s is AnalysableSample => !!s);
  const totalCells = chosen.reduce((n, s) => n + s.cells, 0);
  const smallSamples = chosen.filter((s) => s.cells <= AMBIENT_MIN_CELLS);
  const several = w.draft.datasets.length > 1;
  const plate = looksPlateBased(
    chosen.map((s) => ({ cells: s.cells, umi: { median: s.umiMedian }, valueKind: s.valueKind })),
  );
  const ofKind = (k: AnalysableSample['valueKind']) => chosen.filter((s) => s.valueKind === k);
  const notCounts = chosen.filter((s) => s.valueKind !== 'counts');
  const logged = ofKind('logNormalized');
  const medianCounts = chosen.map((s) => s.umiMedian).sort((a, b) => a - b)[chosen.length >> 1] ?? 0;
  const hint = (text: string) => <Typography.Text type="secondary">{text}</Typography.Text>;
  return (
    <Form layout="vertical" style={{ maxWidth: 720 }}>
      {(['nonIntegerCounts', 'logNormalized'] as const).map(
        (k) =>
          ofKind(k).length > 0 && (
            <Alert
              key={k}
              data-testid={`wizard-value-kind-${k}`}
              type="info"
              showIcon
              style={{ marginBottom: 12 }}
              title={t(`options.valueKinds.${k}`, {
                samples: ofKind(k)
                  .map((s) => s.name)
                  .join(', '),
              })}
            />
          ),
      )}
      <Form.Item
        label={t('options.preset')}
        extra={hint(
          [
            t('options.presetHint', { genes: PLATE_PRESET.expressedGeneRange.range.join('–') }),
            plate ? t('options.presetAuto', { median: Math.round(medianCounts).toLocaleString() }) : '',
          ].join(' '),
        )}
      >
        <Radio.Group
          data-testid="wizard-preset"
          value={p.preset}
          onChange={(e) => w.setPreset(e.target.value as WizardPreset)}
          options={(['droplet', 'plate'] as const).map((v) => ({
            value: v,
            label: t(`options.presets.${v}`),
          }))}
        />
      </Form.Item>{' '}
      <Form.Item
        label={t('options.cluster')}
        extra={hint(t('options.clusterHint', { value: DEFAULTS.cluster }))}
      >
        <InputNumber
          min={RESOLUTION_BOUNDS.min}
          max={RESOLUTION_BOUNDS.max}
          step={0.1}
          value={p.cluster}
          onChange={(v) => w.setParam({ cluster: v ?? DEFAULTS.cluster })}
        />
      </Form.Item>
      <Form.Item label={t('options.algorithm')}>
        <Radio.Group
          value={p.algorithm}
          onChange={(e) => w.setParam({ algorithm: e.target.value as 'louvain' | 'leiden' })}
          options={(['louvain', 'leiden'] as const).map((v) => ({
            value: v,
            label: t(`options.algorithms.${v}`),
          }))}
        />
      </Form.Item>
      <Form.Item
        label={t('options.hvg')}
        extra={hint(
          t('options.hvgHint', {
            n: DEFAULTS.numberOfHighlyVariableGenes,
            method: t(`options.hvgMethods.${DEFAULTS.hvgMethod}`),
          }),
        )}
      >
        <InputNumber
          min={100}
          max={10000}
          step={100}
          value={p.numberOfHighlyVariableGenes}
          onChange={(v) =>
            w.setParam({ numberOfHighlyVariableGenes: v ?? DEFAULTS.numberOfHighlyVariableGenes })
          }
        />
        <Select
          style={{ width: 200, marginLeft: 8 }}
          value={p.hvgMethod}
          onChange={(v) => w.setParam({ hvgMethod: v })}
          options={[
            { value: 'seurat', label: t('options.hvgMethods.seurat') },
            { value: 'seurat_v3', label: t('options.hvgMethods.seurat_v3') },
            { value: 'pearson', label: t('options.hvgMethods.pearson') },
          ]}
        />
      </Form.Item>
      <Form.Item label={t('options.pc')} extra={hint(t('options.pcHint'))}>
        <Radio.Group
          value={p.pcValueState}
          onChange={(e) => w.setParam({ pcValueState: e.target.value as 'auto' | 'manual' })}
          options={[
            { value: 'auto', label: t('options.pcAuto') },
            { value: 'manual', label: t('options.pcManual') },
          ]}
        />
        {p.pcValueState === 'manual' && (
          <InputNumber
            min={2}
            max={100}
            value={p.pcValueNum}
            onChange={(v) => w.setParam({ pcValueNum: v ?? DEFAULTS.pcValueNum })}
          />
        )}
      </Form.Item>
      <Form.Item
        label={t('options.scale')}
        extra={hint(t('options.scaleHint', { cells: totalCells.toLocaleString() }))}
      >
        <Switch checked={p.scaleLargeData} onChange={(v) => w.setParam({ scaleLargeData: v })} />
        {totalCells > SCALE_HINT_CELLS && !p.scaleLargeData && (
          <Typography.Text type="warning"> {t('options.scaleSuggested')}</Typography.Text>
        )}
      </Form.Item>
      <Form.Item
        label={t('options.ambient')}
        extra={hint(
          notCounts.length
            ? t('options.ambientNeedsCounts')
            : smallSamples.length
              ? t('options.ambientTooFew', { samples: smallSamples.map((s) => s.name).join(', ') })
              : t('options.ambientHint'),
        )}
      >
        <Switch
          data-testid="wizard-ambient"
          checked={p.contaminationState && notCounts.length === 0}
          disabled={smallSamples.length > 0 || notCounts.length > 0}
          onChange={(v) => w.setParam({ contaminationState: v })}
        />
      </Form.Item>
      <Form.Item
        label={t('options.doublets')}
        extra={logged.length ? hint(t('options.doubletsNeedCounts')) : undefined}
      >
        <Switch
          data-testid="wizard-doublets"
          checked={p.doubletState && logged.length === 0}
          disabled={logged.length > 0}
          onChange={(v) => w.setParam({ doubletState: v })}
        />
      </Form.Item>
      <Form.Item label={t('options.cellCycle')} extra={hint(t('options.cellCycleHint'))}>
        <Switch
          checked={p.removeCellCycleEffects}
          onChange={(v) => w.setParam({ removeCellCycleEffects: v })}
        />
      </Form.Item>
      {several ? (
        <Form.Item label={t('options.batch')} extra={hint(t('options.batchHint'))}>
          <Select
            data-testid="options-batch"
            style={{ width: 200 }}
            value={p.batchRemoveMethod}
            onChange={(v) => w.setParam({ batchRemoveMethod: v })}
            options={[
              { value: 'none', label: t('options.batchNone') },
              { value: 'harmony', label: t('options.batchMethods.harmony') },
              { value: 'mnn', label: t('options.batchMethods.mnn') },
            ]}
          />
        </Form.Item>
      ) : (
        <Form.Item label={t('options.batch')}>{hint(t('options.batchSingle'))}</Form.Item>
      )}
      <Form.Item label={t('options.annotation')}>
        <Radio.Group
          data-testid="wizard-annotation"
          value={p.annotationType}
          onChange={(e) => w.setParam({ annotationType: e.target.value as 'none' | 'auto' | 'reference' })}
          options={[
            { value: 'none', label: t('options.annotationNone') },
            { value: 'auto', label: t('options.annotationAuto') },
            { value: 'reference', label: t('options.annotationReference') },
          ]}
        />
      </Form.Item>
      {p.annotationType === 'reference' && (
        <Form.Item label={t('options.reference')} required>
          <Input value={p.reference} onChange={(e) => w.setParam({ reference: e.target.value })} />
        </Form.Item>
      )}
      <Form.Item label={t('options.tissue')} required={p.annotationType !== 'none'}>
        <Input
          data-testid="wizard-tissue"
          value={p.tissue}
          onChange={(e) => w.setParam({ tissue: e.target.value })}
        />
      </Form.Item>
    </Form>
  );
}
