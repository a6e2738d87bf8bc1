import { Alert, Button, Card, Form, Input, Typography } from 'antd';
import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { loginPasswordField, type LoginRequest } from '@cellcloud/contracts';
import { useLogin } from '../../api/account';
import { useSession } from '../../api/session';
import { PublicLayout } from '../../shared/PublicLayout';
import { useZodRule } from '../../shared/useFieldError';
import { safeRedirect } from '../../app/loginRedirect';

/** /login?redirect=<page left>: user name or e-mail + password; back to the page after login. */
export default function LoginPage() {
  const { t } = useTranslation('auth');
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const session = useSession();
  const login = useLogin();
  const zodRule = useZodRule();
  const target = safeRedirect(params.get('redirect'));
  const query = params.toString() ? `?${params.toString()}` : '';

  if (session && !login.isPending && !login.isSuccess) return <Navigate to={target} replace />;

  const onFinish = (values: LoginRequest) => {
    login.mutate(values, { onSuccess: () => navigate(target, { replace: true }) });
  };

  return (
    <PublicLayout>
      <Card className="cc-auth-card" title={<Typography.Title level={3} style={{ margin: 0 }}>{t('login.title')}</Typography.Title>}>
        <Typography.Paragraph type="secondary">{t('login.subtitle')}</Typography.Paragraph>
        {login.error && <Alert type="error" showIcon title={login.error.message} style={{ marginBottom: 16 }} data-testid="login-error" />}
        <Form<LoginRequest> layout="vertical" onFinish={onFinish} requiredMark={false}>
          <Form.Item name="username" label={t('login.username')} rules={[{ required: true, message: t('validation:login.required') }]}>
            <Input prefix={<UserOutlined />} autoComplete="username" placeholder={t('login.usernamePlaceholder')} />
          </Form.Item>
          <Form.Item
            name="password"
            label={t('login.password')}
            rules={[{ required: true, message: t('validation:required') }, zodRule(loginPasswordField)]}
          >
            <Input.Password prefix={<LockOutlined />} autoComplete="current-password" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={login.isPending} data-testid="login-submit">
            {t('login.submit')}
          </Button>
        </Form>
        <div style={{ display: 'flex', justifyContent: 'space-between', marginTop: 16 }}>
          <Link to={`/forgot-password${query}`}>{t('login.forgot')}</Link>
          <Link to={`/signup${query}`}>{t('login.toSignUp')}</Link>
        </div>
      </Card>
    </PublicLayout>
  );
}
