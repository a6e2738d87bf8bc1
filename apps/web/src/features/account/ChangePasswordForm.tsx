import { Alert, App, Button, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  loginPasswordField,
  newPasswordField,
  type ChangePasswordRequest,
} from '@cellcloud/contracts/account';
import { useChangePassword } from '../../api/account';
import { useZodRule } from '../../shared/useFieldError';
import { repeatRule } from '../../shared/repeatRule';

/** Current password, new password twice (docs/product/validation.md#passwords rule). */
export function ChangePasswordForm() {
  const { t } = useTranslation(['account', 'auth']);
  const { message } = App.useApp();
  const [form] = Form.useForm<ChangePasswordRequest>();
  const change = useChangePassword();
  const zodRule = useZodRule();
  const req = { required: true, message: t('validation:required') };
  const onFinish = (v: ChangePasswordRequest) =>
    change.mutate(v, {
      onSuccess: () => {
        void message.success(t('changePassword.done'), 1);
        form.resetFields();
      },
    });
  return (
    <Form form={form} layout="vertical" onFinish={onFinish} style={{ maxWidth: 420 }} requiredMark={false}>
      {change.error && (
        <Alert type="error" showIcon title={change.error.message} style={{ marginBottom: 12 }} />
      )}
      <Form.Item
        name="oldPassword"
        label={t('changePassword.old')}
        rules={[req, zodRule(loginPasswordField)]}
      >
        <Input.Password autoComplete="current-password" />
      </Form.Item>
      <Form.Item
        name="password"
        label={t('changePassword.new')}
        extra={t('auth:signUp.passwordHelp')}
        rules={[req, zodRule(newPasswordField)]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        name="repeatPassword"
        label={t('auth:signUp.repeatPassword')}
        dependencies={['password']}
        rules={[req, repeatRule(t)]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={change.isPending}>
        {t('changePassword.submit')}
      </Button>
    </Form>
  );
}
