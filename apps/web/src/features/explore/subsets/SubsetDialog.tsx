import { Form, Input, Modal, Select, message } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ArtifactManifest } from '@cellcloud/contracts/artifacts';
import type { SubsetView } from '@cellcloud/contracts/explore';
import { useSubsetAction } from '../../../api/explore';
import { categoricalColumns, levelLabelKey } from '../annotationLevels';

export type DialogKind =
  | { kind: 'fromSelection' }
  | { kind: 'copy' }
  | { kind: 'rename'; subset: SubsetView }
  | { kind: 'merge'; subset: SubsetView }
  | { kind: 'map'; subset: SubsetView };

interface Props {
  datasetId: string;
  manifest: ArtifactManifest;
  subsets: SubsetView[];
  selection: number[];
  dialog: DialogKind;
  onClose: () => void;
}

type Values = {
  name?: string;
  label?: string;
  key?: string;
  labels?: string[];
  into?: string;
  mapping?: Record<string, string>;
};

/** The subset forms (create from selection, copy a group, rename, merge clusters, map labels). */
export function SubsetDialog({ datasetId, manifest, subsets, selection, dialog, onClose }: Props) {
  const { t } = useTranslation('explore');
  const [form] = Form.useForm<Values>();
  const action = useSubsetAction(datasetId);
  const groups = [
    ...categoricalColumns(manifest).map((o) => ({
      value: o.key,
      label: levelLabelKey(o.key) ? t(levelLabelKey(o.key)!) : o.key,
    })),
    ...subsets.map((x) => ({ value: `subset:${x.id}`, label: x.name })),
  ];
  const subset = 'subset' in dialog ? dialog.subset : null;
  const titles = {
    fromSelection: t('subsets.fromSelection'),
    copy: t('subsets.copy'),
    rename: t('subsets.rename'),
    merge: t('subsets.merge'),
    map: t('subsets.map'),
  };

  const submit = async () => {
    const v = await form.validateFields();
    const run = (a: Parameters<typeof action.mutateAsync>[0]) =>
      action.mutateAsync(a).then(
        () => {
          void message.success(t('subsets.saved'));
          onClose();
        },
        (e: Error) => void message.error(e.message),
      );
    if (dialog.kind === 'fromSelection')
      await run({
        kind: 'create',
        body: { from: 'cells', name: v.name!, label: v.label!, cells: selection },
      });
    else if (dialog.kind === 'copy')
      await run({ kind: 'create', body: { from: 'copy', name: v.name!, key: v.key! } });
    else if (dialog.kind === 'rename')
      await run({ kind: 'edit', body: { subsetId: subset!.id, name: v.name! } });
    else if (dialog.kind === 'merge')
      await run({ kind: 'merge', body: { subsetId: subset!.id, labels: v.labels!, into: v.into! } });
    else await run({ kind: 'map', body: { subsetId: subset!.id, mapping: v.mapping! } });
  };

  const required = [{ required: true, message: t('subsets.required') }];
  return (
    <Modal
      open
      title={titles[dialog.kind]}
      onOk={() => void submit()}
      onCancel={onClose}
      confirmLoading={action.isPending}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={{
          name: subset?.name,
          mapping: subset ? Object.fromEntries(subset.labels.map((l) => [l, l])) : undefined,
        }}
      >
        {(dialog.kind === 'fromSelection' || dialog.kind === 'copy' || dialog.kind === 'rename') && (
          <Form.Item name="name" label={t('subsets.name')} rules={required}>
            <Input data-testid="subset-name" />
          </Form.Item>
        )}
        {dialog.kind === 'fromSelection' && (
          <Form.Item
            name="label"
            label={t('subsets.label')}
            rules={required}
            extra={t('subsets.cellsChosen', { count: selection.length })}
          >
            <Input data-testid="subset-label" />
          </Form.Item>
        )}
        {dialog.kind === 'copy' && (
          <Form.Item name="key" label={t('subsets.group')} rules={required} extra={t('subsets.copyHint')}>
            <Select options={groups} data-testid="subset-group" />
          </Form.Item>
        )}
        {dialog.kind === 'merge' && (
          <>
            <Form.Item
              name="labels"
              label={t('subsets.mergeLabels')}
              rules={[{ required: true, type: 'array', min: 2, message: t('subsets.mergeTwo') }]}
            >
              <Select mode="multiple" options={subset!.labels.map((l) => ({ value: l, label: l }))} />
            </Form.Item>
            <Form.Item name="into" label={t('subsets.into')} rules={required} extra={t('subsets.mergeHint')}>
              <Input />
            </Form.Item>
          </>
        )}
        {dialog.kind === 'map' &&
          subset!.labels.map((l) => (
            <Form.Item key={l} name={['mapping', l]} label={l} rules={required}>
              <Input />
            </Form.Item>
          ))}
      </Form>
    </Modal>
  );
}
