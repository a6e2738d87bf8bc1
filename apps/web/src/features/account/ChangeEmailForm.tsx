import { Alert, App, Button, Form, Input, Space } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { emailCodeField, emailField, type ChangeEmailRequest } from '@cellcloud/contracts/account';
import { accountKeys, useChangeEmail } from '../../api/account';
import { useZodRule } from '../../shared/useFieldError';
import { SendCodeButton } from '../auth/SendCodeButton';

/** New e-mail address confirmed by a code sent to it. */
export function ChangeEmailForm() {
  const { t } = useTranslation(['account', 'auth']);
  const { message } = App.useApp();
  const [form] = Form.useForm<ChangeEmailRequest>();
  const change = useChangeEmail();
  const queryClient = useQueryClient();
  const zodRule = useZodRule();
  const req = { required: true, message: t('validation:required') };
  const onFinish = (v: ChangeEmailRequest) =>
    change.mutate(v, {
      onSuccess: () => {
        void message.success(t('changeEmail.done'), 1);
        form.resetFields();
        void queryClient.invalidateQueries({ queryKey: accountKeys.info });
      },
    });
  return (
    <Form form={form} layout="vertical" onFinish={onFinish} style={{ maxWidth: 420 }} requiredMark={false}>
      {change.error && (
        <Alert type="error" showIcon title={change.error.message} style={{ marginBottom: 12 }} />
      )}
      <Form.Item name="email" label={t('changeEmail.newEmail')} rules={[req, zodRule(emailField)]}>
        <Input autoComplete="email" />
      </Form.Item>
      <Form.Item label={t('auth:signUp.emailCode')}>
        <Space.Compact style={{ width: '100%' }}>
          <Form.Item name="code" noStyle rules={[req, zodRule(emailCodeField)]}>
            <Input inputMode="numeric" maxLength={6} placeholder={t('auth:code.placeholder')} />
          </Form.Item>
          <SendCodeButton form={form} purpose="changeEmail" />
        </Space.Compact>
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={change.isPending}>
        {t('changeEmail.submit')}
      </Button>
    </Form>
  );
}
