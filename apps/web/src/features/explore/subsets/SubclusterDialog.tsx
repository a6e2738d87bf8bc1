import { Form, InputNumber, Modal, Select, Switch, Typography, message } from 'antd';
import { useTranslation } from 'react-i18next';
import { LIMITS } from '@cellcloud/contracts/constants';
import type { SubsetView } from '@cellcloud/contracts/explore';
import { useStartSubcluster } from '../../../api/exploreJobs';
import { RESOLUTION_BOUNDS } from '@cellcloud/contracts/clustering';
import { childAnalysisParams } from '@cellcloud/contracts/analysis-params';

/** The sub-clustering form starts at the contract's defaults (docs/defaults.md: one source). */
const CHILD_DEFAULTS = childAnalysisParams.parse({});

interface Props {
  datasetId: string;
  subset: SubsetView;
  onClose: () => void;
}

type Values = {
  labels?: string[];
  clusteringResolution: number;
  reDimensionalityReduction: boolean;
  onlyScaleHighlyVariableGenes: boolean;
};

/** Sub-celltype analysis of a subset's clusters (≥ 100 cells) as a child task with the docs/product/entities.md#child-analysis-parameters child parameters. */
export function SubclusterDialog({ datasetId, subset, onClose }: Props) {
  const { t } = useTranslation('explore');
  const [form] = Form.useForm<Values>();
  const start = useStartSubcluster(datasetId);
  const chosen: string[] = Form.useWatch('labels', form) ?? [];
  const cells = (chosen.length ? chosen : subset.labels).reduce(
    (a, l) => a + (subset.counts[subset.labels.indexOf(l)] ?? 0),
    0,
  );
  const tooFew = cells < LIMITS.subclusterMinCells;
  const submit = async () => {
    const v = await form.validateFields();
    start.mutate(
      {
        key: `subset:${subset.id}`,
        labels: v.labels ?? [],
        params: {
          clusteringResolution: v.clusteringResolution,
          reDimensionalityReduction: v.reDimensionalityReduction,
          onlyScaleHighlyVariableGenes: v.onlyScaleHighlyVariableGenes,
        },
      },
      {
        onSuccess: () => {
          void message.success(t('subcluster.started'));
          onClose();
        },
        onError: (e) => void message.error(e.message),
      },
    );
  };
  return (
    <Modal
      open
      title={t('subcluster.title', { name: subset.name })}
      onOk={() => void submit()}
      onCancel={onClose}
      confirmLoading={start.isPending}
      okButtonProps={{ disabled: tooFew, 'data-testid': 'subcluster-ok' }}
    >
      <Form
        form={form}
        layout="vertical"
        data-testid="subcluster-form"
        initialValues={{
          clusteringResolution: CHILD_DEFAULTS.clusteringResolution,
          reDimensionalityReduction: CHILD_DEFAULTS.reDimensionalityReduction,
          onlyScaleHighlyVariableGenes: CHILD_DEFAULTS.onlyScaleHighlyVariableGenes,
        }}
      >
        <Form.Item name="labels" label={t('subcluster.labels')}>
          <Select
            data-testid="subcluster-labels"
            mode="multiple"
            placeholder={t('subcluster.allLabels')}
            options={subset.labels.map((l) => ({ value: l, label: l }))}
          />
        </Form.Item>
        <Form.Item name="clusteringResolution" label={t('subcluster.resolution')}>
          <InputNumber min={RESOLUTION_BOUNDS.min} max={RESOLUTION_BOUNDS.max} step={0.1} />
        </Form.Item>
        <Form.Item name="reDimensionalityReduction" label={t('subcluster.reReduce')} valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item
          name="onlyScaleHighlyVariableGenes"
          label={t('subcluster.onlyHvg')}
          valuePropName="checked"
        >
          <Switch />
        </Form.Item>
        <Typography.Text data-testid="subcluster-cells" type={tooFew ? 'danger' : undefined}>
          {tooFew
            ? t('subcluster.tooFew', { cells, min: LIMITS.subclusterMinCells })
            : t('subcluster.cells', { cells })}
        </Typography.Text>
      </Form>
    </Modal>
  );
}
