import { Empty, Layout, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

export interface ExplorerLayoutProps {
  title: string;
  datasetId: string | null;
}

/** Page frame of the explorer: header, viewer area and tabs; empty state without a dataset id. */
export function ExplorerLayout({ title, datasetId }: ExplorerLayoutProps) {
  const { t } = useTranslation('explore');
  return (
    <Layout style={{ minHeight: '100%', background: 'transparent' }}>
      <Typography.Title level={3}>{title}</Typography.Title>
      {datasetId === null ? (
        <Empty description={t('page.noDataset')} />
      ) : (
        <Empty description={t('page.loading')} />
      )}
    </Layout>
  );
}
