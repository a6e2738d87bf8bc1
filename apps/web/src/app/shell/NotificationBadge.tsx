import { Badge, Button } from 'antd';
import { BellOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LIMITS } from '@cellcloud/contracts/constants';
import { useUnreadCount } from '../../api/content';
import { useJobEvents } from '../../api/jobEvents';

/** Bell with the unread count, capped at 99+ (docs/product/limits.md#interface-constants), live over the job events stream. */
export function NotificationBadge() {
  const { t } = useTranslation('shell');
  const navigate = useNavigate();
  const unread = useUnreadCount();
  useJobEvents(); // live unread count and job progress on every signed-in page
  const count = unread.data ?? 0;
  return (
    <Button
      type="text"
      aria-label={t('notifications.open')}
      data-testid="notification-badge"
      onClick={() => navigate('/notifications')}
      icon={
        <Badge count={count} overflowCount={LIMITS.notificationBadgeCap} size="small">
          <BellOutlined style={{ fontSize: 16 }} />
        </Badge>
      }
    />
  );
}
