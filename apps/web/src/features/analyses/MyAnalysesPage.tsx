import { Tabs, Typography } from 'antd';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import IntegratedDatasetsTab from '../jobs/IntegratedDatasetsTab';
import CustomDatasetsTab from '../jobs/CustomDatasetsTab';
import UploadedFilesTab from '../files/UploadedFilesTab';
import { ResultFilesTab } from './ResultFilesTab';
import { ProjectFilesTab } from './ProjectFilesTab';
import { SharedWithMeTab } from './SharedWithMeTab';
import { TutorialDialog } from './TutorialDialog';

const TABS = ['integrated', 'custom', 'shared', 'uploaded', 'results', 'projects'] as const;

/** /my_analyzes?tab=…: the lists of docs/product/screens.md#routes-after-login (and the analyses shared with the user, docs/product/sharing.md), and the first-visit tutorial. */
export default function MyAnalysesPage() {
  const { t } = useTranslation('analyses');
  const [params, setParams] = useSearchParams();
  const tab = TABS.find((k) => k === params.get('tab')) ?? 'integrated';
  return (
    <>
      <Typography.Title level={2}>{t('title')}</Typography.Title>
      <Tabs
        activeKey={tab}
        onChange={(k) => setParams({ tab: k }, { replace: true })}
        items={[
          { key: 'integrated', label: t('tabs.integrated'), children: <IntegratedDatasetsTab /> },
          { key: 'custom', label: t('tabs.custom'), children: <CustomDatasetsTab /> },
          { key: 'shared', label: t('tabs.shared'), children: <SharedWithMeTab /> },
          { key: 'uploaded', label: t('tabs.uploaded'), children: <UploadedFilesTab /> },
          { key: 'results', label: t('tabs.results'), children: <ResultFilesTab /> },
          { key: 'projects', label: t('tabs.projects'), children: <ProjectFilesTab /> },
        ]}
      />
      <TutorialDialog />
    </>
  );
}
