import { Button, Space, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ListTable } from '../../shared/ListTable';

/** My Analyses → integrated datasets: integration jobs of the user (filled by the jobs work). */
export default function IntegratedDatasetsTab() {
  const { t } = useTranslation('jobs');
  const navigate = useNavigate();
  const columns = ['jobName', 'analysisId', 'status', 'submissionTime', 'finishTime', 'runningTime'].map((k) => ({
    key: k,
    title: t(`columns.${k}`),
  }));
  return (
    <ListTable
      testId="integrated-datasets"
      columns={columns}
      rows={[]}
      empty={
        <Space direction="vertical">
          <Typography.Text>{t('integrated.empty')}</Typography.Text>
          <Button type="primary" onClick={() => navigate('/integrateLocalData')}>
            {t('integrated.start')}
          </Button>
        </Space>
      }
    />
  );
}
