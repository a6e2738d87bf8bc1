import { Button, Space, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { DraftsList } from './DraftsList';
import { JobsTable } from './JobsTable';

/** My Analyses → integrated datasets: analyses of several samples. */
export default function IntegratedDatasetsTab() {
  const { t } = useTranslation('jobs');
  const navigate = useNavigate();
  return (
    <>
      <DraftsList />
      <JobsTable
        kind="integrated"
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
