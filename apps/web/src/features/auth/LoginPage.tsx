import { Alert, Button, Form } from 'antd';
// deep imports: `Input` from the antd index also pulls TextArea, Search and OTP into /login
import Input from 'antd/es/input/Input';
import Password from 'antd/es/input/Password';
import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { LoginRequest } from '@cellcloud/contracts/account';
import { LIMITS } from '@cellcloud/contracts/constants';
import { useLogin } from '../../api/login';
import { useSession } from '../../api/session';
import { PublicLayout } from '../../shared/PublicLayout';
import { safeRedirect } from '../../app/loginRedirect';

/** /login?redirect=<page left>: user name or e-mail + password; back to the page after login. */
export default function LoginPage() {
  const { t } = useTranslation('auth');
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const session = useSession();
  const login = useLogin();
  const target = safeRedirect(params.get('redirect'));
  const query = params.toString() ? `?${params.toString()}` : '';

  if (session && !login.isPending && !login.isSuccess) return <Navigate to={target} replace />;

  const onFinish = (values: LoginRequest) => {
    login.mutate(values, { onSuccess: () => navigate(target, { replace: true }) });
  };

  return (
    <PublicLayout>
      {/* plain elements instead of Card/Typography keep the first load of /login small */}
      <section className="cc-auth-card cc-panel">
        <h1 className="cc-panel-title">{t('login.title')}</h1>
        <p className="cc-muted">{t('login.subtitle')}</p>
        {login.error && (
          <Alert
            type="error"
            showIcon
            title={login.error.message}
            style={{ marginBottom: 16 }}
            data-testid="login-error"
          />
        )}
        <Form<LoginRequest> layout="vertical" onFinish={onFinish} requiredMark={false}>
          <Form.Item
            name="username"
            label={t('login.username')}
            rules={[{ required: true, message: t('validation:login.required') }]}
          >
            <Input
              prefix={<UserOutlined />}
              autoComplete="username"
              placeholder={t('login.usernamePlaceholder')}
            />
          </Form.Item>
          <Form.Item
            name="password"
            label={t('login.password')}
            rules={[
              { required: true, message: t('validation:required') },
              { min: LIMITS.passwordMin, message: t('validation:password.min') },
            ]}
          >
            <Password prefix={<LockOutlined />} autoComplete="current-password" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={login.isPending} data-testid="login-submit">
            {t('login.submit')}
          </Button>
        </Form>
        <div style={{ display: 'flex', justifyContent: 'space-between', marginTop: 16 }}>
          <Link to={`/forgot-password${query}`}>{t('login.forgot')}</Link>
          <Link to={`/signup${query}`}>{t('login.toSignUp')}</Link>
        </div>
      </section>
    </PublicLayout>
  );
}
