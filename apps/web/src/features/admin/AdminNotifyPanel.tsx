import { Alert, Button, Col, Form, Input, Row, message } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNotifyAll } from '../../api/admin-content';

interface Fields {
  titleEn: string;
  titleZh: string;
  bodyEn: string;
  bodyZh: string;
}

/** A system notification to every user, written in both languages (each user reads their own). */
export function AdminNotifyPanel() {
  const { t } = useTranslation('content');
  const [form] = Form.useForm<Fields>();
  const notify = useNotifyAll();
  const [msg, holder] = message.useMessage();
  const required = [{ required: true, whitespace: true, message: t('required') }];
  const send = (f: Fields) =>
    notify.mutate(
      { title: { 'en-US': f.titleEn, 'zh-CN': f.titleZh }, body: { 'en-US': f.bodyEn, 'zh-CN': f.bodyZh } },
      {
        onSuccess: (r) => {
          void msg.success(t('notify.sent', { count: r.recipients }));
          form.resetFields();
        },
      },
    );
  return (
    <>
      {holder}
      {notify.error && (
        <Alert type="error" showIcon message={notify.error.message} style={{ marginBottom: 12 }} />
      )}
      <Form<Fields> form={form} layout="vertical" onFinish={send} style={{ maxWidth: 1000 }}>
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item name="titleEn" label={t('titleEn')} rules={required}>
              <Input data-testid="notify-title-en" maxLength={200} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="titleZh" label={t('titleZh')} rules={required}>
              <Input data-testid="notify-title-zh" maxLength={200} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="bodyEn" label={t('notify.bodyEn')} rules={required}>
              <Input.TextArea rows={4} data-testid="notify-body-en" maxLength={5000} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="bodyZh" label={t('notify.bodyZh')} rules={required}>
              <Input.TextArea rows={4} data-testid="notify-body-zh" maxLength={5000} />
            </Form.Item>
          </Col>
        </Row>
        <Button type="primary" htmlType="submit" data-testid="notify-send" loading={notify.isPending}>
          {t('notify.send')}
        </Button>
      </Form>
    </>
  );
}
