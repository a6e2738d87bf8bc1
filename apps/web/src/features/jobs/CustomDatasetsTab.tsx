import { Button, Space, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { JobsTable } from './JobsTable';

/** My Analyses → custom datasets: analyses of a single sample. */
export default function CustomDatasetsTab() {
  const { t } = useTranslation('jobs');
  const navigate = useNavigate();
  return (
    <JobsTable
      kind="custom"
      empty={
        <Space orientation="vertical">
          <Typography.Text>{t('custom.empty')}</Typography.Text>
          <Button type="primary" onClick={() => navigate('/integrateLocalData')}>
            {t('custom.start')}
          </Button>
        </Space>
      }
    />
  );
}
