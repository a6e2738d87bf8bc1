import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ListTable } from '../../shared/ListTable';

/** My Analyses → project files: samples imported from sequencing-pipeline cloud projects. */
export function ProjectFilesTab() {
  const { t } = useTranslation('analyses');
  const columns = ['projectName', 'sampleId', 'status', 'storageTime'].map((k) => ({ key: k, title: t(`columns.${k}`) }));
  return <ListTable testId="project-files" columns={columns} rows={[]} empty={<Typography.Text>{t('projects.empty')}</Typography.Text>} />;
}
