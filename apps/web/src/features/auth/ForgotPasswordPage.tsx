import { Alert, Button, Card, Form, Input, Result, Space, Typography } from 'antd';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  emailCodeField,
  emailField,
  newPasswordField,
  type ForgotPasswordRequest,
} from '@cellcloud/contracts/account';
import { useForgotPassword } from '../../api/account';
import { PublicLayout } from '../../shared/PublicLayout';
import { useZodRule } from '../../shared/useFieldError';
import { repeatRule } from '../../shared/repeatRule';
import { SendCodeButton } from './SendCodeButton';

/** Forgot password: code sent by e-mail, new password entered twice (docs/product/screens.md#sign-in-screens). */
export default function ForgotPasswordPage() {
  const { t } = useTranslation('auth');
  const [form] = Form.useForm<ForgotPasswordRequest>();
  const [params] = useSearchParams();
  const reset = useForgotPassword();
  const zodRule = useZodRule();
  const query = params.toString() ? `?${params.toString()}` : '';
  const req = { required: true, message: t('validation:required') };

  if (reset.isSuccess) {
    return (
      <PublicLayout>
        <Result
          status="success"
          title={t('forgot.success')}
          extra={
            <Link to={`/login${query}`}>
              <Button type="primary">{t('signUp.toLogin')}</Button>
            </Link>
          }
        />
      </PublicLayout>
    );
  }
  return (
    <PublicLayout>
      <Card
        className="cc-auth-card"
        title={
          <Typography.Title level={3} style={{ margin: 0 }}>
            {t('forgot.title')}
          </Typography.Title>
        }
      >
        <Typography.Paragraph type="secondary">{t('forgot.subtitle')}</Typography.Paragraph>
        {reset.error && (
          <Alert type="error" showIcon title={reset.error.message} style={{ marginBottom: 16 }} />
        )}
        <Form<ForgotPasswordRequest>
          form={form}
          layout="vertical"
          onFinish={(v) => reset.mutate(v)}
          requiredMark={false}
        >
          <Form.Item name="email" label={t('signUp.email')} rules={[req, zodRule(emailField)]}>
            <Input autoComplete="email" />
          </Form.Item>
          <Form.Item label={t('signUp.emailCode')}>
            <Space.Compact style={{ width: '100%' }}>
              <Form.Item name="code" noStyle rules={[req, zodRule(emailCodeField)]}>
                <Input inputMode="numeric" maxLength={6} placeholder={t('code.placeholder')} />
              </Form.Item>
              <SendCodeButton form={form} purpose="reset" />
            </Space.Compact>
          </Form.Item>
          <Form.Item
            name="password"
            label={t('forgot.newPassword')}
            extra={t('signUp.passwordHelp')}
            rules={[req, zodRule(newPasswordField)]}
          >
            <Input.Password autoComplete="new-password" />
          </Form.Item>
          <Form.Item
            name="repeatPassword"
            label={t('signUp.repeatPassword')}
            dependencies={['password']}
            rules={[req, repeatRule(t)]}
          >
            <Input.Password autoComplete="new-password" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={reset.isPending}>
            {t('forgot.submit')}
          </Button>
        </Form>
        <div style={{ marginTop: 16 }}>
          <Link to={`/login${query}`}>{t('forgot.back')}</Link>
        </div>
      </Card>
    </PublicLayout>
  );
}
