import { useState } from 'react';
import { Button, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { LIMITS } from '@cellcloud/contracts/constants';
import { signOut } from '../../api/account';
import { endSession } from '../../api/session';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Logout confirm (docs/product/states.md#logout): on confirm the button shows a loading "exiting" label for ~700 ms,
 * the server session is closed, then after 300 ms the local session ends and the app goes to
 * /login?redirect=<page left> (SessionBridge).
 */
export function LogoutDialog({ open, onCancel }: { open: boolean; onCancel: () => void }) {
  const { t } = useTranslation('shell');
  const [exiting, setExiting] = useState(false);
  const confirm = async () => {
    setExiting(true);
    await sleep(LIMITS.logoutDelayMs);
    await signOut();
    await sleep(LIMITS.logoutSecondDelayMs);
    setExiting(false);
    endSession('logout');
  };
  return (
    <Modal
      open={open}
      title={t('logout.title')}
      onCancel={exiting ? undefined : onCancel}
      closable={!exiting}
      mask={{ closable: !exiting }}
      footer={[
        <Button key="cancel" onClick={onCancel} disabled={exiting}>
          {t('common:cancel')}
        </Button>,
        <Button
          key="ok"
          type="primary"
          danger
          loading={exiting}
          onClick={() => void confirm()}
          data-testid="logout-confirm"
        >
          {exiting ? t('logout.exiting') : t('logout.confirm')}
        </Button>,
      ]}
    >
      {t('logout.body')}
    </Modal>
  );
}
