import { Descriptions, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import type { AnalysableSample } from '../../api/wizard';
import type { WizardState } from './useWizard';

/** Step 4: what will be submitted. */
export function PreviewStep({ w, samples }: { w: WizardState; samples: AnalysableSample[] }) {
  const { t } = useTranslation('wizard');
  const p = w.draft.param;
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
          {p.geneState === 'recommended' ? t('filters.recommended') : p.geneRange.join(' – ')}
        </Descriptions.Item>
        <Descriptions.Item label={t('filters.umis')}>
          {p.umiState === 'recommended' ? t('filters.recommended') : p.umiRange.join(' – ')}
        </Descriptions.Item>
        <Descriptions.Item label={t('filters.mito')}>
          {p.mitochondrialState === 'recommended' ? t('filters.recommended') : `${p.mitochondrial} %`}
        </Descriptions.Item>
        <Descriptions.Item label={t('filters.ribo')}>{`${p.ribosomal} %`}</Descriptions.Item>
        <Descriptions.Item label={t('options.cluster')}>{`${p.cluster} (${p.algorithm})`}</Descriptions.Item>
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
          {p.batchRemoveMethod === 'none' ? t('options.batchNone') : p.batchRemoveMethod}
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
