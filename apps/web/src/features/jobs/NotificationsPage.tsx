import { Empty, List, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** /notifications: job and download messages of the user (filled by the jobs work). */
export default function NotificationsPage() {
  const { t } = useTranslation('jobs');
  return (
    <>
      <Typography.Title level={2}>{t('notifications.title')}</Typography.Title>
      <List
        dataSource={[]}
        locale={{ emptyText: <Empty description={t('notifications.empty')} /> }}
        renderItem={() => null}
      />
    </>
  );
}
