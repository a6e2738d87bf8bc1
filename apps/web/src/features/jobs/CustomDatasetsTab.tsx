import { Button, Space, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ListTable } from '../../shared/ListTable';

/** My Analyses → custom datasets: sub-celltype / child analyses (filled by the jobs work). */
export default function CustomDatasetsTab() {
  const { t } = useTranslation('jobs');
  const navigate = useNavigate();
  const columns = ['jobName', 'analysisId', 'status', 'producedOn'].map((k) => ({ key: k, title: t(`columns.${k}`) }));
  return (
    <ListTable
      testId="custom-datasets"
      columns={columns}
      rows={[]}
      empty={
        <Space direction="vertical">
          <Typography.Text>{t('custom.empty')}</Typography.Text>
          <Button onClick={() => navigate('/guidebook')}>{t('custom.learn')}</Button>
        </Space>
      }
    />
  );
}
