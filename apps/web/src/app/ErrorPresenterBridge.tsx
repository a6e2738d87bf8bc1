import { useEffect } from 'react';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { setErrorPresenter } from '../api/errorPresenter';
import { endSession } from '../api/session';

/** Toast durations (docs/product/errors.md#toasts): 1 s for info, 5 s for errors the user must read. */
export const TOAST_SHORT_S = 1;
export const TOAST_LONG_S = 5;

/** Registers the docs/product/errors.md#status-handling error behaviours with antd's message / modal, translated. */
export function ErrorPresenterBridge() {
  const { message, modal } = App.useApp();
  const { t } = useTranslation('errors');

  useEffect(() => {
    let alertOpen = false;
    const alertThenLogout = (title: string, content: string, reason: 'expired' | 'maintenance') => {
      if (alertOpen) return;
      alertOpen = true;
      modal.warning({
        title,
        content,
        okText: t('common:ok'),
        onOk: () => {
          alertOpen = false;
          endSession(reason);
        },
      });
    };
    setErrorPresenter({
      maintenance: () => alertThenLogout(t('maintenance.title'), t('maintenance.body'), 'maintenance'),
      expired: () => alertThenLogout(t('expired.title'), t('expired.body'), 'expired'),
      forbidden: () => void message.info(t('forbidden'), TOAST_SHORT_S),
      notFound: () => void message.warning(t('notFound'), TOAST_SHORT_S),
      serverMessage: (msg) => void message.error(msg || t('unknown'), TOAST_LONG_S),
    });
    return () => setErrorPresenter(null);
  }, [message, modal, t]);
  return null;
}
