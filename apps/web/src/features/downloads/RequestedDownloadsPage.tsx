import { Tabs, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ListTable } from '../../shared/ListTable';

const TABS = ['active', 'requested', 'expired'] as const;

/** /requestedDownloads: active, requested and expired download requests (SPEC §2, §4). */
export default function RequestedDownloadsPage() {
  const { t } = useTranslation('downloads');
  const columns = ['fileName', 'jobName', 'status', 'validDays'].map((k) => ({ key: k, title: t(`columns.${k}`) }));
  return (
    <>
      <Typography.Title level={2}>{t('title')}</Typography.Title>
      <Typography.Paragraph type="secondary">{t('intro')}</Typography.Paragraph>
      <Tabs
        items={TABS.map((k) => ({
          key: k,
          label: t(`tabs.${k}`),
          children: <ListTable columns={columns} rows={[]} empty={t(`empty.${k}`)} />,
        }))}
      />
    </>
  );
}
