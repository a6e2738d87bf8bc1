import { useEffect, useState } from 'react';
import { Button, Divider, Drawer, Typography } from 'antd';
import { MessageOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LIMITS } from '@cellcloud/contracts/constants';
import { UpdateLog } from './UpdateLog';

/** Side drawer (width 350, docs/product/overview.md#help-drawer-and-update-log): feedback → /contact, and the update log. */
export function SideDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('shell');
  const navigate = useNavigate();
  const [everOpened, setEverOpened] = useState(false);
  useEffect(() => {
    if (open) setEverOpened(true);
  }, [open]);
  return (
    <Drawer
      open={open}
      onClose={onClose}
      size={LIMITS.drawerWidth}
      placement="right"
      title={t('drawer.title')}
      styles={{ body: { display: 'flex', flexDirection: 'column', padding: 16, overflow: 'hidden' } }}
      data-testid="side-drawer"
    >
      <Typography.Title level={5}>{t('drawer.feedbackTitle')}</Typography.Title>
      <Typography.Paragraph type="secondary">{t('drawer.feedbackBody')}</Typography.Paragraph>
      <Button
        icon={<MessageOutlined />}
        onClick={() => {
          onClose();
          navigate('/contact');
        }}
      >
        {t('drawer.feedback')}
      </Button>
      <Divider />
      <Typography.Title level={5}>{t('drawer.updateLog')}</Typography.Title>
      <UpdateLog enabled={everOpened} />
    </Drawer>
  );
}
