import { Alert, Button, Card, Checkbox, Col, Form, Input, Result, Row, Space, Typography } from 'antd';
import type { FormRule } from 'antd';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  emailCodeField,
  emailField,
  newPasswordField,
  phoneField,
  usernameField,
  type RegisterRequest,
} from '@cellcloud/contracts/account';
import { checkAvailability, useRegister, type AvailabilityField } from '../../api/account';
import { PublicLayout } from '../../shared/PublicLayout';
import { useZodRule } from '../../shared/useFieldError';
import { CONTACT } from '../../config/contact';
import { SendCodeButton } from './SendCodeButton';
import { repeatRule } from '../../shared/repeatRule';

type Values = RegisterRequest;

/** Registration with every docs/product/entities.md#registration field, live availability checks and the e-mail code. */
export default function SignUpPage() {
  const { t } = useTranslation('auth');
  const [form] = Form.useForm<Values>();
  const [params] = useSearchParams();
  const register = useRegister();
  const zodRule = useZodRule();
  const query = params.toString() ? `?${params.toString()}` : '';
  const req = { required: true, message: t('validation:required') };

  const available = (field: AvailabilityField): FormRule => ({
    validator: async (_r, value: unknown) => {
      if (typeof value !== 'string' || !value.trim()) return;
      const r = await checkAvailability(field, value.trim()).catch(() => null);
      if (r && !r.available) throw new Error(t(`signUp.taken.${field}`));
    },
  });

  if (register.isSuccess) {
    return (
      <PublicLayout>
        <Result
          status="success"
          title={t('signUp.success')}
          subTitle={t('signUp.successBody')}
          extra={
            <Link to={`/login${query}`}>
              <Button type="primary" data-testid="to-login">
                {t('signUp.toLogin')}
              </Button>
            </Link>
          }
        />
      </PublicLayout>
    );
  }

  return (
    <PublicLayout>
      <Card
        className="cc-auth-card wide"
        title={
          <Typography.Title level={3} style={{ margin: 0 }}>
            {t('signUp.title')}
          </Typography.Title>
        }
      >
        {register.error && (
          <Alert
            type="error"
            showIcon
            title={t('signUp.failed')}
            description={register.error.message}
            style={{ marginBottom: 16 }}
          />
        )}
        <Form<Values>
          form={form}
          layout="vertical"
          onFinish={(v) => register.mutate(v)}
          validateTrigger="onBlur"
          requiredMark="optional"
        >
          <Form.Item
            name="username"
            label={t('signUp.username')}
            extra={t('signUp.usernameHelp')}
            hasFeedback
            rules={[req, zodRule(usernameField), available('username')]}
          >
            <Input autoComplete="username" />
          </Form.Item>
          <Row gutter={12}>
            <Col xs={24} sm={12}>
              <Form.Item name="firstName" label={t('signUp.firstName')} rules={[req]}>
                <Input autoComplete="given-name" />
              </Form.Item>
            </Col>
            <Col xs={24} sm={12}>
              <Form.Item name="lastName" label={t('signUp.lastName')} rules={[req]}>
                <Input autoComplete="family-name" />
              </Form.Item>
            </Col>
          </Row>
          <Form.Item
            name="email"
            label={t('signUp.email')}
            extra={t('signUp.emailHelp')}
            hasFeedback
            rules={[req, zodRule(emailField), available('email')]}
          >
            <Input autoComplete="email" />
          </Form.Item>
          <Form.Item label={t('signUp.emailCode')} required>
            <Space.Compact style={{ width: '100%' }}>
              <Form.Item name="emailCode" noStyle rules={[req, zodRule(emailCodeField)]}>
                <Input inputMode="numeric" maxLength={6} placeholder={t('code.placeholder')} />
              </Form.Item>
              <SendCodeButton form={form} purpose="register" />
            </Space.Compact>
          </Form.Item>
          <Form.Item
            name="phone"
            label={t('signUp.phone')}
            hasFeedback
            rules={[zodRule(phoneField), available('phone')]}
          >
            <Input autoComplete="tel" />
          </Form.Item>
          <Row gutter={12}>
            <Col xs={24} sm={12}>
              <Form.Item
                name="password"
                label={t('signUp.password')}
                extra={t('signUp.passwordHelp')}
                rules={[req, zodRule(newPasswordField)]}
              >
                <Input.Password autoComplete="new-password" />
              </Form.Item>
            </Col>
            <Col xs={24} sm={12}>
              <Form.Item
                name="repeatPassword"
                label={t('signUp.repeatPassword')}
                dependencies={['password']}
                rules={[req, repeatRule(t)]}
              >
                <Input.Password autoComplete="new-password" />
              </Form.Item>
            </Col>
          </Row>
          <Form.Item name="institution" label={t('signUp.institution')} rules={[req]}>
            <Input autoComplete="organization" />
          </Form.Item>
          <Form.Item name="researchInterest" label={t('signUp.researchInterest')}>
            <Input.TextArea rows={2} maxLength={500} />
          </Form.Item>
          <Form.Item name="marketingConsent" valuePropName="checked" initialValue={false}>
            <Checkbox>{t('signUp.marketing')}</Checkbox>
          </Form.Item>
          <Form.Item
            name="termsAgreed"
            valuePropName="checked"
            initialValue={false}
            rules={[
              {
                validator: async (_r, v: unknown) => {
                  if (!v) throw new Error(t('validation:terms.required'));
                },
              },
            ]}
          >
            <Checkbox data-testid="terms">
              {t('signUp.termsPrefix')}{' '}
              <a href={CONTACT.legal.terms} target="_blank" rel="noreferrer">
                {t('common:footer.terms')}
              </a>{' '}
              {t('signUp.and')}{' '}
              <a href={CONTACT.legal.privacy} target="_blank" rel="noreferrer">
                {t('common:footer.privacy')}
              </a>
            </Checkbox>
          </Form.Item>
          <Button
            type="primary"
            htmlType="submit"
            block
            loading={register.isPending}
            data-testid="signup-submit"
          >
            {t('signUp.submit')}
          </Button>
        </Form>
        <div style={{ marginTop: 16 }}>
          {t('signUp.haveAccount')} <Link to={`/login${query}`}>{t('signUp.toLogin')}</Link>
        </div>
      </Card>
    </PublicLayout>
  );
}
