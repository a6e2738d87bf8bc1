import { useState } from 'react';
import { Button, Space, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { DraftsList } from './DraftsList';
import { JobsTable } from './JobsTable';
import { SynEcoSysOnlySwitch } from '../publicdb/SynEcoSysOnlySwitch';
import { usePublicAccess } from '../publicdb/usePublicAccess';

/** My Analyses → integrated datasets: analyses of several samples. */
export default function IntegratedDatasetsTab() {
  const { t } = useTranslation('jobs');
  const navigate = useNavigate();
  // display switch "show only integrated SynEcoSys datasets" (issue 20): the filter, on by default
  const { onlyIntegrated } = usePublicAccess();
  const [only, setOnly] = useState(true);
  return (
    <>
      <DraftsList />
      {onlyIntegrated && <SynEcoSysOnlySwitch checked={only} onChange={setOnly} />}
      <JobsTable
        kind="integrated"
        synEcoSysOnly={onlyIntegrated && only}
        empty={
          <Space orientation="vertical">
            <Typography.Text>{t('integrated.empty')}</Typography.Text>
            <Button type="primary" onClick={() => navigate('/integrateLocalData')}>
              {t('integrated.start')}
            </Button>
          </Space>
        }
      />
    </>
  );
}
