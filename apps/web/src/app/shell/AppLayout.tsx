import { useState } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { Button, Tooltip } from 'antd';
import { MenuFoldOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { AccountInfo } from '@cellcloud/contracts/account';
import { TopMenu } from './TopMenu';
import { UserMenu } from './UserMenu';
import { LanguageSwitch } from '../../shared/LanguageSwitch';
import { NotificationBadge } from './NotificationBadge';
import { SideDrawer } from './SideDrawer';
import { LogoutDialog } from './LogoutDialog';
import { Footer } from '../../shared/Footer';
import { Logo } from '../../shared/Logo';
import { WeChatWidget } from '../../shared/WeChatWidget';
import { RouteErrorBoundary } from '../RouteErrorBoundary';
import { useIsAdmin } from '../../api/admin';

/** Frame of the logged-in pages: header (menu, badge, language, drawer, user), page, footer. */
export function AppLayout({ info }: { info: AccountInfo }) {
  const { t } = useTranslation('shell');
  const location = useLocation();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [logoutOpen, setLogoutOpen] = useState(false);
  const full = location.pathname.startsWith('/app1');
  const openLogout = () => setLogoutOpen(true);
  const isAdmin = useIsAdmin();

  return (
    <div style={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
      <header className="cc-header">
        <Link to="/my_analyzes" className="cc-logo" aria-label={t('product.name')}>
          <Logo />
        </Link>
        <TopMenu privileges={info.privileges} onLogout={openLogout} />
        <div className="cc-header-actions">
          <NotificationBadge />
          <LanguageSwitch />
          <Tooltip title={t('drawer.open')}>
            <Button
              type="text"
              icon={<MenuFoldOutlined />}
              aria-label={t('drawer.open')}
              data-testid="drawer-toggle"
              onClick={() => setDrawerOpen((o) => !o)}
            />
          </Tooltip>
          <UserMenu userName={info.user.username} isAdmin={isAdmin === true} onLogout={openLogout} />
        </div>
      </header>
      <main className={full ? 'cc-content-full' : 'cc-content'} style={{ flex: 1 }}>
        {/* a failing page (e.g. a chunk that did not load) keeps the header, menu and language switch */}
        <RouteErrorBoundary resetKey={location.pathname}>
          <Outlet />
        </RouteErrorBoundary>
      </main>
      {!full && <Footer />}
      <SideDrawer open={drawerOpen} onClose={() => setDrawerOpen(false)} />
      <LogoutDialog open={logoutOpen} onCancel={() => setLogoutOpen(false)} />
      <WeChatWidget />
    </div>
  );
}
