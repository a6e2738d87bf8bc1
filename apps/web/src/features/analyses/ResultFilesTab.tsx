import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ListTable } from '../../shared/ListTable';

/** My Analyses → result files: files produced by finished analyses (download needs approval). */
export function ResultFilesTab() {
  const { t } = useTranslation('analyses');
  const columns = ['fileName', 'jobName', 'producedOn', 'download'].map((k) => ({ key: k, title: t(`columns.${k}`) }));
  return <ListTable testId="result-files" columns={columns} rows={[]} empty={<Typography.Text>{t('results.empty')}</Typography.Text>} />;
}
