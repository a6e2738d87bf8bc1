import { useState } from 'react';
import { Button, Drawer, Grid, Menu } from 'antd';
import { MenuOutlined } from '@ant-design/icons';
import { useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { PrivilegeEntry } from '@cellcloud/contracts/privileges';
import { buildMenuItems, LOGOUT_KEY, TUTORIAL_KEY } from './menuItems';

/** The privilege-driven top menu; below the md breakpoint a collapsed menu in a drawer. */
export function TopMenu({
  privileges,
  onLogout,
}: {
  privileges: readonly PrivilegeEntry[];
  onLogout: () => void;
}) {
  const { t } = useTranslation(['shell', 'menu', 'publicdb']);
  const navigate = useNavigate();
  const location = useLocation();
  const screens = Grid.useBreakpoint();
  const [open, setOpen] = useState(false);
  const items = buildMenuItems(privileges, t);
  const onClick = ({ key }: { key: string }) => {
    setOpen(false);
    if (key === LOGOUT_KEY) onLogout();
    else if (key === TUTORIAL_KEY) navigate('/my_analyzes?tutorial=1');
    else if (key.startsWith('/')) navigate(key);
  };
  const selected = [location.pathname.startsWith('/app1') ? '/app1' : location.pathname];

  if (screens.md === false) {
    return (
      <>
        <Button
          type="text"
          icon={<MenuOutlined />}
          aria-label={t('nav.openMenu')}
          onClick={() => setOpen(true)}
        />
        <Drawer open={open} onClose={() => setOpen(false)} placement="left" size={280} title={t('nav.menu')}>
          <Menu
            mode="inline"
            items={items}
            selectedKeys={selected}
            onClick={onClick}
            data-testid="top-menu"
          />
        </Drawer>
      </>
    );
  }
  return (
    <Menu
      className="cc-menu"
      mode="horizontal"
      items={items}
      selectedKeys={selected}
      onClick={onClick}
      data-testid="top-menu"
    />
  );
}
