import { Alert, Card, Tabs, Typography } from 'antd';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useStorageUsage } from '../../api/files';
import { formatBytes } from './format';
import { UploadForm } from './UploadForm';
import UploadedFilesTab from './UploadedFilesTab';

const TABS = ['matrix', 'annotated', 'celescope'] as const;

/** /importdata: expression matrix / annotated dataset tabs (docs/product/screens.md#routes-after-login) plus a CeleScope project source. */
export default function ImportDataPage() {
  const { t } = useTranslation('files');
  const [params, setParams] = useSearchParams();
  const tab = TABS.find((k) => k === params.get('tab')) ?? 'matrix';
  const usage = useStorageUsage();
  const body = (k: (typeof TABS)[number]) => (
    <>
      <Alert
        type="info"
        showIcon
        title={t(`import.${k}.formats`)}
        description={t(`import.${k}.rules`)}
        style={{ marginBottom: 16 }}
      />
      <Card style={{ marginBottom: 16 }}>
        <UploadForm kind={k} />
      </Card>
    </>
  );
  return (
    <>
      <Typography.Title level={2}>{t('import.title')}</Typography.Title>
      {usage.data && (
        <Typography.Paragraph type="secondary" data-testid="storage-usage">
          {t('import.storage', {
            used: formatBytes(usage.data.usedBytes),
            quota: formatBytes(usage.data.quotaBytes),
          })}
        </Typography.Paragraph>
      )}
      <Tabs
        activeKey={tab}
        onChange={(k) => setParams({ tab: k }, { replace: true })}
        items={TABS.map((k) => ({ key: k, label: t(`import.${k}.tab`), children: body(k) }))}
      />
      <Card title={t('import.yourUploads')}>
        <UploadedFilesTab />
      </Card>
    </>
  );
}
