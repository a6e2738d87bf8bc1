import { Alert, Card, Tabs, Typography } from 'antd';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import UploadedFilesTab from './UploadedFilesTab';

const TABS = ['matrix', 'annotated'] as const;

/** /importdata: expression matrix / annotated dataset tabs (SPEC §2), with the accepted formats. */
export default function ImportDataPage() {
  const { t } = useTranslation('files');
  const [params, setParams] = useSearchParams();
  const tab = TABS.find((k) => k === params.get('tab')) ?? 'matrix';
  const body = (k: (typeof TABS)[number]) => (
    <>
      <Alert type="info" showIcon title={t(`import.${k}.formats`)} description={t(`import.${k}.rules`)} style={{ marginBottom: 16 }} />
      <Card title={t('import.yourUploads')}>
        <UploadedFilesTab />
      </Card>
    </>
  );
  return (
    <>
      <Typography.Title level={2}>{t('import.title')}</Typography.Title>
      <Tabs
        activeKey={tab}
        onChange={(k) => setParams({ tab: k }, { replace: true })}
        items={TABS.map((k) => ({ key: k, label: t(`import.${k}.tab`), children: body(k) }))}
      />
    </>
  );
}
