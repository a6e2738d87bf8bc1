import { Button, Dropdown } from 'antd';
import { DownOutlined, UserOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';

/** The user-name menu: account settings and logout (docs/product/screens.md#menu). */
export function UserMenu({
  userName,
  isAdmin = false,
  onLogout,
}: {
  userName: string;
  isAdmin?: boolean;
  onLogout: () => void;
}) {
  const { t } = useTranslation(['shell', 'menu']);
  const navigate = useNavigate();
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items: [
          { key: 'account', label: t('menu:accountSettings') },
          // administrators only: the admin console
          ...(isAdmin ? [{ key: 'admin', label: t('shell:nav.admin'), 'data-testid': 'admin-menu' }] : []),
          { type: 'divider' },
          { key: 'logout', label: t('menu:logout'), danger: true },
        ],
        onClick: ({ key }) =>
          key === 'logout' ? onLogout() : navigate(key === 'admin' ? '/admin' : '/accountsettings'),
      }}
    >
      <Button type="text" data-testid="user-menu" icon={<UserOutlined />}>
        <span className="cc-hide-mobile">{userName}</span>
        <DownOutlined style={{ fontSize: 10 }} />
      </Button>
    </Dropdown>
  );
}
