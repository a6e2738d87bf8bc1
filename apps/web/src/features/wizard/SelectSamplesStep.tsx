import { Alert, Button, Empty, Form, Input, Select, Table } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { species as speciesList } from '@cellcloud/contracts/analysis-params';
import { looksPlateBased, type WizardSample } from '@cellcloud/contracts/wizard';
import type { AnalysableSample } from '../../api/wizard';
import { proposedSampleName } from './stepRules';
import type { WizardState } from './useWizard';

/** Step 1: the user's Completed samples (one species), job name, sample names and groups. */
export function SelectSamplesStep({ w, samples }: { w: WizardState; samples: AnalysableSample[] }) {
  const { t } = useTranslation('wizard');
  const navigate = useNavigate();
  const selected = new Map(w.draft.datasets.map((d) => [d.id, d]));
  const knownSpecies = [
    ...new Set(w.draft.datasets.map((d) => samples.find((s) => s.id === d.id)?.species).filter(Boolean)),
  ];
  if (!samples.length) {
    return (
      <Empty description={t('empty.local')}>
        <Button type="primary" onClick={() => navigate('/importdata')}>
          {t('toImport')}
        </Button>
      </Empty>
    );
  }
  // the filter preset follows the selection (plate-based samples: PLATE_PRESET); step 3 can change it
  const select = (datasets: WizardSample[]) => {
    w.setDatasets(datasets);
    const plate = looksPlateBased(
      datasets.map((d) => {
        const s = samples.find((x) => x.id === d.id);
        return s && { cells: s.cells, umi: { median: s.umiMedian }, valueKind: s.valueKind };
      }),
    );
    const preset = plate ? 'plate' : 'droplet';
    if (preset !== w.draft.param.preset) w.setPreset(preset);
    // steps that need raw integer counts are off for samples without them (step 3 says why)
    const kinds = datasets.map((d) => samples.find((x) => x.id === d.id)?.valueKind ?? 'counts');
    if (kinds.some((k) => k !== 'counts')) w.setParam({ contaminationState: false });
    if (kinds.includes('logNormalized')) w.setParam({ doubletState: false });
  };
  const update = (id: string, patch: { name?: string; group?: string }) =>
    w.setDatasets(w.draft.datasets.map((d) => (d.id === id ? { ...d, ...patch } : d)));
  return (
    <>
      <Form layout="vertical">
        <Form.Item label={t('fields.jobName')} required extra={t('hints.name')}>
          <Input
            data-testid="wizard-job-name"
            value={w.draft.param.jobName}
            maxLength={100}
            onChange={(e) => w.setParam({ jobName: e.target.value })}
          />
        </Form.Item>
        {knownSpecies.length === 0 && w.draft.datasets.length > 0 && (
          <Form.Item label={t('fields.species')} required>
            <Select
              value={w.draft.param.species}
              onChange={(v) => w.setParam({ species: v })}
              options={speciesList.map((s) => ({ value: s, label: s }))}
              style={{ maxWidth: 240 }}
            />
          </Form.Item>
        )}
      </Form>
      {knownSpecies.length > 1 && (
        <Alert type="error" showIcon title={t('rules.oneSpecies')} style={{ marginBottom: 12 }} />
      )}
      <Table<AnalysableSample>
        data-testid="wizard-samples"
        rowKey="id"
        size="small"
        dataSource={samples}
        pagination={false}
        rowSelection={{
          selectedRowKeys: [...selected.keys()],
          onChange: (keys) =>
            select(
              keys.map(
                (k) =>
                  selected.get(String(k)) ?? {
                    id: String(k),
                    name: proposedSampleName(samples.find((s) => s.id === k)!.name),
                    group: '',
                  },
              ),
            ),
        }}
        columns={[
          { key: 'upload', title: t('fields.upload'), dataIndex: 'name' },
          { key: 'species', title: t('fields.species'), render: (_, s) => s.species ?? '—' },
          { key: 'cells', title: t('fields.cells'), dataIndex: 'cells' },
          {
            key: 'sampleName',
            title: t('fields.sampleName'),
            render: (_, s) =>
              selected.has(s.id) ? (
                <Input
                  size="small"
                  value={selected.get(s.id)!.name}
                  onChange={(e) => update(s.id, { name: e.target.value })}
                />
              ) : null,
          },
          {
            key: 'group',
            title: t('fields.group'),
            render: (_, s) =>
              selected.has(s.id) ? (
                <Input
                  size="small"
                  data-testid={`wizard-group-${s.name}`}
                  value={selected.get(s.id)!.group}
                  onChange={(e) => update(s.id, { group: e.target.value })}
                />
              ) : null,
          },
        ]}
      />
    </>
  );
}
