import { useEffect } from 'react';
import { Alert, Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import type { UploadRow } from '@cellcloud/contracts/files';
import { useRenameUpload } from '../../api/files';
import { useSampleNameRules } from './useSampleNameRule';

/** Rename an upload's sample (same rules as on import; unique per user). */
export function RenameDialog({ row, onClose }: { row: UploadRow | null; onClose: () => void }) {
  const { t } = useTranslation('files');
  const [form] = Form.useForm<{ sampleName: string }>();
  const rename = useRenameUpload();
  const rules = useSampleNameRules(row?.fileName);
  useEffect(() => {
    if (row) form.setFieldsValue({ sampleName: row.fileName });
    rename.reset();
  }, [row]);
  return (
    <Modal
      open={row !== null}
      title={t('uploads.renameTitle')}
      okText={t('uploads.rename')}
      confirmLoading={rename.isPending}
      onCancel={onClose}
      onOk={() => form.submit()}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        onFinish={(v) =>
          row && rename.mutate({ id: row.id, sampleName: v.sampleName.trim() }, { onSuccess: onClose })
        }
      >
        <Form.Item name="sampleName" label={t('import.sampleName')} rules={rules} validateDebounce={300}>
          <Input maxLength={100} data-testid="rename-input" />
        </Form.Item>
      </Form>
      {rename.error && <Alert type="error" showIcon title={rename.error.message} />}
    </Modal>
  );
}
