import { Button, Space, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ListTable } from '../../shared/ListTable';

/** My Analyses → uploaded files (SPEC §3 upload list columns; filled by the files work). */
export default function UploadedFilesTab() {
  const { t } = useTranslation('files');
  const navigate = useNavigate();
  const columns = ['fileName', 'fileSize', 'format', 'uploadedOn', 'state'].map((k) => ({ key: k, title: t(`columns.${k}`) }));
  return (
    <ListTable
      testId="uploaded-files"
      columns={columns}
      rows={[]}
      empty={
        <Space direction="vertical">
          <Typography.Text>{t('uploads.empty')}</Typography.Text>
          <Button type="primary" onClick={() => navigate('/importdata')}>
            {t('uploads.import')}
          </Button>
        </Space>
      }
    />
  );
}
