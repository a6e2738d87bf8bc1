import { Form, Modal, Select, message } from 'antd';
import { useTranslation } from 'react-i18next';
import type { DegGroup } from '@cellcloud/contracts/explore-deg';
import { useCalculateDeg } from '../../../api/exploreJobs';
import type { Grouping } from './degGroupings';

interface Props {
  datasetId: string;
  groupings: Grouping[];
  selection: number[];
  onClose: () => void;
}

const SELECTION = '__selection__';
const REST = '__rest__';
type Values = { aKey: string; aLabels?: string[]; bKey: string; bLabels?: string[] };

/** A new comparison between any two groups (labels of a grouping, the lasso selection, or the rest); runs as a job. */
export function CompareDialog({ datasetId, groupings, selection, onClose }: Props) {
  const { t } = useTranslation('explore');
  const [form] = Form.useForm<Values>();
  const calc = useCalculateDeg(datasetId);
  const aKey = Form.useWatch('aKey', form);
  const bKey = Form.useWatch('bKey', form);
  const labelsOf = (key?: string) =>
    (groupings.find((g) => g.value === key)?.labels ?? []).map((l) => ({ value: l, label: l }));
  const sources = groupings.map((g) => ({ value: g.value, label: g.label }));
  const aSources =
    selection.length > 0
      ? [{ value: SELECTION, label: t('deg.jobs.selection', { count: selection.length }) }, ...sources]
      : sources;
  const bSources = [{ value: REST, label: t('deg.jobs.rest') }, ...sources];
  const toGroup = (key: string, labels: string[] | undefined): DegGroup => {
    if (key === SELECTION) return { from: 'cells', cells: selection, name: t('deg.jobs.selectionName') };
    if (key === REST) return { from: 'rest' };
    return { from: 'labels', key, labels: labels ?? [] };
  };
  const submit = async () => {
    const v = await form.validateFields();
    calc.mutate(
      { mode: 'compare', groupA: toGroup(v.aKey, v.aLabels), groupB: toGroup(v.bKey, v.bLabels) },
      {
        onSuccess: () => {
          void message.success(t('deg.jobs.started'));
          onClose();
        },
        onError: (e) => void message.error(e.message),
      },
    );
  };
  const req = [{ required: true, message: t('subsets.required') }];
  return (
    <Modal
      open
      title={t('deg.jobs.compare')}
      onOk={() => void submit()}
      onCancel={onClose}
      confirmLoading={calc.isPending}
      okButtonProps={{ 'data-testid': 'compare-ok' }}
    >
      <Form form={form} layout="vertical" data-testid="compare-form">
        <Form.Item name="aKey" label={t('deg.jobs.groupA')} rules={req}>
          <Select data-testid="compare-a" options={aSources} />
        </Form.Item>
        {aKey && aKey !== SELECTION && (
          <Form.Item name="aLabels" label={t('deg.jobs.labels')} rules={req}>
            <Select data-testid="compare-a-labels" mode="multiple" options={labelsOf(aKey)} />
          </Form.Item>
        )}
        <Form.Item name="bKey" label={t('deg.jobs.groupB')} rules={req} initialValue={REST}>
          <Select data-testid="compare-b" options={bSources} />
        </Form.Item>
        {bKey && bKey !== REST && (
          <Form.Item name="bLabels" label={t('deg.jobs.labels')} rules={req}>
            <Select data-testid="compare-b-labels" mode="multiple" options={labelsOf(bKey)} />
          </Form.Item>
        )}
        <div>{t('deg.jobs.minCells')}</div>
      </Form>
    </Modal>
  );
}
