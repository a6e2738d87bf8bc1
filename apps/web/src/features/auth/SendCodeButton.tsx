import { App, Button } from 'antd';
import type { FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import { CODE_RESEND_SECONDS, type CodePurpose } from '@cellcloud/contracts/account';
import { useSendCode } from '../../api/account';
import { useCountdown } from '../../shared/useCountdown';

/** Sends an e-mail code to the form's `email` field, then counts down 60 s before a resend. */
export function SendCodeButton({ form, purpose }: { form: FormInstance; purpose: CodePurpose }) {
  const { t } = useTranslation('auth');
  const { message } = App.useApp();
  const send = useSendCode();
  const [left, start] = useCountdown();
  const onClick = async () => {
    try {
      await form.validateFields(['email']);
    } catch {
      return;
    }
    const email = String(form.getFieldValue('email'));
    send.mutate(
      { email, purpose },
      {
        onSuccess: (r) => {
          start(r.resendAfterSeconds || CODE_RESEND_SECONDS);
          // A reset answers alike for any address (no enumeration), so the message is conditional.
          void message.success(t(purpose === 'reset' ? 'code.sentReset' : 'code.sent', { email }), 5);
        },
        onError: (e) => void message.error(e.message, 5),
      },
    );
  };
  return (
    <Button
      onClick={() => void onClick()}
      disabled={left > 0}
      loading={send.isPending}
      data-testid="send-code"
    >
      {left > 0 ? t('code.resendIn', { seconds: left }) : t('code.send')}
    </Button>
  );
}
