import { useState } from 'react';
import { Alert, Button, Form, Input, Progress, Space, Typography, Upload } from 'antd';
import { InboxOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { UploadKind } from '@cellcloud/contracts/files';
import { createUpload, filesKeys, sendFile } from '../../api/files';
import { formatBytes } from './format';
import { useSampleNameRules } from './useSampleNameRule';

interface Picked {
  file: File;
  role: 'data' | 'metadata';
  sent: number;
}

/**
 * One sample per upload (docs/product/validation.md#upload-files): a sample name, its data file(s) — a 10x triplet is three
 * files of one sample — and an optional metadata/group table. Files go by tus with a progress
 * bar each; parsing then continues on the server and shows in the uploads list.
 */
export function UploadForm({ kind }: { kind: UploadKind }) {
  const { t } = useTranslation('files');
  const [form] = Form.useForm<{ sampleName: string }>();
  const rules = useSampleNameRules();
  const qc = useQueryClient();
  const [picked, setPicked] = useState<Picked[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  const add = (role: Picked['role']) => (file: File) => {
    setPicked((p) => [
      ...p.filter(
        (x) =>
          !(x.file.name === file.name && x.role === role) && !(role === 'metadata' && x.role === 'metadata'),
      ),
      { file, role, sent: 0 },
    ]);
    setDone(null);
    return false; // keep the file here; it is sent with tus on submit
  };
  const remove = (f: Picked) => setPicked((p) => p.filter((x) => x !== f));

  const submit = async ({ sampleName }: { sampleName: string }) => {
    setError(null);
    setDone(null);
    if (!picked.some((p) => p.role === 'data')) {
      setError(t('files.required'));
      return;
    }
    setBusy(true);
    try {
      const row = await createUpload({
        sampleName: sampleName.trim(),
        kind,
        files: picked.map((p) => ({ name: p.file.name, size: p.file.size, role: p.role })),
      });
      await qc.invalidateQueries({ queryKey: filesKeys.all });
      for (const [i, p] of picked.entries()) {
        await sendFile(row.files[i]!.slot, p.file, (sent) =>
          setPicked((all) => all.map((x) => (x === p ? { ...x, sent } : x))),
        );
      }
      setDone(sampleName.trim());
      setPicked([]);
      form.resetFields();
      await qc.invalidateQueries({ queryKey: filesKeys.all });
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  const list = (role: Picked['role']) =>
    picked
      .filter((p) => p.role === role)
      .map((p) => (
        <div key={p.file.name} data-testid="upload-file-row" style={{ marginTop: 8 }}>
          <Space style={{ width: '100%', justifyContent: 'space-between' }}>
            <Typography.Text>
              {p.file.name} <Typography.Text type="secondary">({formatBytes(p.file.size)})</Typography.Text>
            </Typography.Text>
            {!busy && (
              <Button size="small" type="link" onClick={() => remove(p)}>
                {t('import.remove')}
              </Button>
            )}
          </Space>
          <Progress
            percent={p.file.size ? Math.floor((100 * p.sent) / p.file.size) : 100}
            size="small"
            status={busy ? 'active' : 'normal'}
          />
        </div>
      ));

  return (
    <Form form={form} layout="vertical" onFinish={submit} disabled={busy} data-testid={`upload-form-${kind}`}>
      <Form.Item
        name="sampleName"
        label={t('import.sampleName')}
        rules={rules}
        validateDebounce={300}
        hasFeedback
      >
        <Input placeholder={t('import.sampleNamePlaceholder')} maxLength={100} data-testid="sample-name" />
      </Form.Item>
      <Form.Item label={t('import.dataFiles')} extra={t(`import.${kind}.hint`)}>
        <Upload.Dragger
          multiple
          showUploadList={false}
          beforeUpload={add('data')}
          data-testid="data-dropzone"
        >
          <p className="ant-upload-drag-icon">
            <InboxOutlined />
          </p>
          <p className="ant-upload-text">{t('import.drop')}</p>
        </Upload.Dragger>
        {list('data')}
      </Form.Item>
      <Form.Item label={t('import.metadataFile')} extra={t('import.metadataHint')}>
        <Upload showUploadList={false} beforeUpload={add('metadata')} accept=".csv,.tsv,.txt">
          <Button>{t('import.chooseMetadata')}</Button>
        </Upload>
        {list('metadata')}
      </Form.Item>
      {error && (
        <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} data-testid="upload-error" />
      )}
      {done && (
        <Alert
          type="success"
          showIcon
          title={t('import.sent', { name: done })}
          style={{ marginBottom: 16 }}
        />
      )}
      <Button type="primary" htmlType="submit" loading={busy} data-testid="upload-submit">
        {busy ? t('import.uploading') : t('import.submit')}
      </Button>
    </Form>
  );
}
