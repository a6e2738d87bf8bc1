import { Alert, Button, Card, Col, Form, Input, Result, Row, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { emailField, type ContactUsRequest } from '@cellcloud/contracts/account';
import { useAccountInfo, useContactUs } from '../../api/account';
import { useIsChina } from '../../shared/useIsChina';
import { useZodRule } from '../../shared/useFieldError';
import { ContactFacts } from './ContactFacts';

/** /contact: contact points of the visitor's region and the contact form (/account/contactUS). */
export default function ContactPage() {
  const { t } = useTranslation('resource');
  const china = useIsChina();
  const info = useAccountInfo();
  const send = useContactUs();
  const zodRule = useZodRule();
  const [form] = Form.useForm<ContactUsRequest>();
  const req = { required: true, message: t('validation:required') };
  const user = info.data?.user;
  return (
    <>
      <Typography.Title level={2}>{t('contact.title')}</Typography.Title>
      <Row gutter={[24, 24]}>
        <Col xs={24} md={10}>
          <Card title={t('contact.reachUs')}>
            <ContactFacts china={china} />
          </Card>
        </Col>
        <Col xs={24} md={14}>
          <Card title={t('contact.formTitle')}>
            {send.isSuccess ? (
              <Result
                status="success"
                title={t('contact.sent')}
                extra={
                  <Button
                    onClick={() => {
                      send.reset();
                      form.resetFields();
                    }}
                  >
                    {t('contact.another')}
                  </Button>
                }
              />
            ) : (
              <Form<ContactUsRequest>
                form={form}
                layout="vertical"
                requiredMark={false}
                initialValues={{
                  name: user ? `${user.firstName} ${user.lastName}` : '',
                  email: user?.email ?? '',
                }}
                onFinish={(v) => send.mutate(v)}
              >
                {send.error && (
                  <Alert type="error" showIcon title={send.error.message} style={{ marginBottom: 12 }} />
                )}
                <Form.Item name="name" label={t('contact.name')} rules={[req]}>
                  <Input />
                </Form.Item>
                <Form.Item name="email" label={t('contact.email')} rules={[req, zodRule(emailField)]}>
                  <Input />
                </Form.Item>
                <Form.Item name="subject" label={t('contact.subject')} rules={[req]}>
                  <Input maxLength={200} />
                </Form.Item>
                <Form.Item name="message" label={t('contact.message')} rules={[req]}>
                  <Input.TextArea rows={5} maxLength={5000} showCount />
                </Form.Item>
                <Button type="primary" htmlType="submit" loading={send.isPending}>
                  {t('contact.send')}
                </Button>
              </Form>
            )}
          </Card>
        </Col>
      </Row>
    </>
  );
}
