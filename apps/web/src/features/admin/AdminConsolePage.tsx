import { Tabs, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { useIsAdmin } from '../../api/admin';
import { ResourceUnavailable } from '../../shared/ResourceUnavailable';
import AdminDownloadsPage from './AdminDownloadsPage';
import { AdminAuditTab } from './AdminAuditTab';
import { AdminContentTab } from './AdminContentTab';
import { AdminJobsTab } from './AdminJobsTab';
import { AdminPlansTab } from './AdminPlansTab';
import { AdminPublicIngestTab } from './AdminPublicIngestTab';
import { AdminStorageTab } from './AdminStorageTab';
import { AdminUsersTab } from './AdminUsersTab';

const TABS = ['users', 'plans', 'downloads', 'jobs', 'storage', 'public', 'content', 'audit'] as const;
type Tab = (typeof TABS)[number];

/** /admin/:tab? (administrators only): the admin console; /admin/downloads is the approvals queue. */
export default function AdminConsolePage() {
  const { t } = useTranslation('admin');
  const isAdmin = useIsAdmin();
  const navigate = useNavigate();
  const params = useParams();
  const tab: Tab = TABS.includes(params.tab as Tab) ? (params.tab as Tab) : 'users';
  if (isAdmin === false) return <ResourceUnavailable />;
  const body = (k: Tab) => {
    if (k !== tab) return null;
    if (k === 'users') return <AdminUsersTab />;
    if (k === 'plans') return <AdminPlansTab />;
    if (k === 'downloads') return <AdminDownloadsPage />;
    if (k === 'jobs') return <AdminJobsTab />;
    if (k === 'storage') return <AdminStorageTab />;
    if (k === 'public') return <AdminPublicIngestTab />;
    if (k === 'content') return <AdminContentTab />;
    return <AdminAuditTab />;
  };
  return (
    <>
      <Typography.Title level={2}>{t('title')}</Typography.Title>
      <Tabs
        data-testid="admin-tabs"
        activeKey={tab}
        onChange={(k) => void navigate(`/admin/${k}`)}
        items={TABS.map((k) => ({ key: k, label: t(`tabs.${k}`), children: body(k) }))}
      />
    </>
  );
}
