import { Navigate, useLocation } from 'react-router';
import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { routePermission } from '@cellcloud/contracts/privileges';
import { useSession } from '../../api/session';
import { useAccountInfo } from '../../api/account';
import { ApiError } from '../../api/client';
import { loginRedirectPath } from '../loginRedirect';
import { PageSpinner } from '../../shared/PageSpinner';
import { AppLayout } from './AppLayout';
import { canUse } from './privilegeAccess';

/**
 * Guard + frame of every logged-in route (docs/product/screens.md#route-guards, docs/product/permissions.md#privileges): no token → /login?redirect=<page left>;
 * a route whose privilege is disabled, hidden or absent → /404.
 */
export default function PrivateShell() {
  const session = useSession();
  const location = useLocation();
  const info = useAccountInfo();
  const { t } = useTranslation('shell');
  if (!session) return <Navigate to={loginRedirectPath(location.pathname + location.search)} replace />;
  // 401 / network / 5xx: the expired or maintenance alert is up and the session ends next
  const endsSession =
    info.error instanceof ApiError &&
    (info.error.status === 401 || info.error.status === 0 || info.error.status >= 500);
  if (info.isError && !info.data && !endsSession) {
    return (
      <Result
        status="error"
        title={t('infoFailed.title')}
        subTitle={t('infoFailed.body')}
        extra={<Button onClick={() => void info.refetch()}>{t('infoFailed.retry')}</Button>}
      />
    );
  }
  if (!info.data) return <PageSpinner />;
  const needed = routePermission(location.pathname);
  if (needed && !canUse(info.data.privileges, needed)) return <Navigate to="/404" replace />;
  return <AppLayout info={info.data} />;
}
