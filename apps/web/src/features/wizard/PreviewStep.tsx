import { useMemo, type ReactNode } from 'react';
import { Descriptions, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { cellFilteringResult, effectiveThresholds } from '@cellcloud/contracts/wizard';
import { useCellFiltering, type AnalysableSample } from '../../api/wizard';
import type { WizardState } from './useWizard';

/**
 * Step 4: what will be submitted. Filters show the numbers that will be applied: manual values,
 * or the evaluation's per-sample recommendations; without an evaluation the recommendation is
 * computed per sample when the analysis runs, and the preview says so.
 */
export function PreviewStep({ w, samples }: { w: WizardState; samples: AnalysableSample[] }) {
  const { t } = useTranslation('wizard');
  const p = w.draft.param;
  const evaluate = p.cellFilteringEvaluation === 'evaluate';
  const evaluation = useCellFiltering(w.draftId ?? null, evaluate);
  const evaluated = useMemo(() => {
    const parsed = evaluation.data?.result ? cellFilteringResult.safeParse(evaluation.data.result) : null;
    return parsed?.success ? parsed.data.samples : [];
  }, [evaluation.data?.result]);
  /** One line per sample when the value differs between samples, else the single value. */
  const applied = (
    state: 'recommended' | 'manual',
    manual: string,
    pick: (th: ReturnType<typeof effectiveThresholds>) => string,
  ): ReactNode => {
    if (state !== 'recommended') return manual;
    if (evaluated.length === 0) return t('preview.recommendedAtRun');
    const lines = evaluated.map((s) => ({ name: s.name, value: pick(effectiveThresholds(p, s)) }));
    if (new Set(lines.map((l) => l.value)).size === 1)
      return t('preview.recommendedValue', { value: lines[0]!.value });
    return lines.map((l) => (
      <div key={l.name}>{`${l.name}: ${t('preview.recommendedValue', { value: l.value })}`}</div>
    ));
  };
  const yes = (v: boolean) => t(v ? 'preview.yes' : 'preview.no');
  const species =
    w.draft.datasets.map((d) => samples.find((s) => s.id === d.id)?.species).find(Boolean) ??
    p.species ??
    '—';
  return (
    <>
      <Descriptions bordered size="small" column={1} data-testid="wizard-preview">
        <Descriptions.Item label={t('fields.jobName')}>{p.jobName}</Descriptions.Item>
        <Descriptions.Item label={t('fields.species')}>{species}</Descriptions.Item>
        <Descriptions.Item label={t('steps.cellFiltering')}>
          {t(p.cellFilteringEvaluation === 'evaluate' ? 'cellFiltering.evaluate' : 'cellFiltering.skip')}
        </Descriptions.Item>
        <Descriptions.Item label={t('filters.genes')}>
          {applied(p.geneState, p.geneRange.join(' – '), (th) => th.geneRange.join(' – '))}
        </Descriptions.Item>
        <Descriptions.Item label={t('filters.umis')}>
          {applied(p.umiState, p.umiRange.join(' – '), (th) => th.umiRange.join(' – '))}
        </Descriptions.Item>
        <Descriptions.Item label={t('filters.mito')}>
          {applied(p.mitochondrialState, `${p.mitochondrial} %`, (th) => `${th.mitochondrial} %`)}
        </Descriptions.Item>
        <Descriptions.Item label={t('filters.ribo')}>{`${p.ribosomal} %`}</Descriptions.Item>
        <Descriptions.Item
          label={t('options.cluster')}
        >{`${p.cluster} (${t(`options.algorithms.${p.algorithm}`)})`}</Descriptions.Item>
        <Descriptions.Item
          label={t('options.hvg')}
        >{`${p.numberOfHighlyVariableGenes} (${t(`options.hvgMethods.${p.hvgMethod}`)})`}</Descriptions.Item>
        <Descriptions.Item label={t('options.pc')}>
          {p.pcValueState === 'auto' ? t('options.pcAuto') : p.pcValueNum}
        </Descriptions.Item>
        <Descriptions.Item label={t('options.ambient')}>{yes(p.contaminationState)}</Descriptions.Item>
        <Descriptions.Item label={t('options.doublets')}>{yes(p.doubletState)}</Descriptions.Item>
        <Descriptions.Item label={t('options.cellCycle')}>{yes(p.removeCellCycleEffects)}</Descriptions.Item>
        <Descriptions.Item label={t('options.scale')}>{yes(p.scaleLargeData)}</Descriptions.Item>
        <Descriptions.Item label={t('options.batch')}>
          {p.batchRemoveMethod === 'none'
            ? t('options.batchNone')
            : t(`options.batchMethods.${p.batchRemoveMethod}`)}
        </Descriptions.Item>
        <Descriptions.Item label={t('options.annotation')}>
          {p.annotationType === 'none'
            ? t('options.annotationNone')
            : `${t(p.annotationType === 'auto' ? 'options.annotationAuto' : 'options.annotationReference')}${
                p.annotationType === 'reference' ? ` (${p.reference})` : ''
              } · ${t('options.tissue')}: ${p.tissue}`}
        </Descriptions.Item>
      </Descriptions>
      <Table
        style={{ marginTop: 16 }}
        size="small"
        rowKey="id"
        pagination={false}
        dataSource={w.draft.datasets}
        columns={[
          { key: 'name', title: t('fields.sampleName'), dataIndex: 'name' },
          { key: 'group', title: t('fields.group'), dataIndex: 'group' },
        ]}
      />
    </>
  );
}
