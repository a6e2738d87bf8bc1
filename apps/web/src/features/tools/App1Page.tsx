import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Typography } from 'antd';
import { PageSpinner } from '../../shared/PageSpinner';

const Whiteboard = lazy(() => import('./Whiteboard'));

/** /app1: the embedded drawing tool (Excalidraw), drawings saved per user. */
export default function App1Page() {
  const { t } = useTranslation('tools');
  return (
    <div style={{ display: 'flex', flex: 1, minHeight: 'calc(100vh - 56px)' }}>
      <Typography.Title level={1} className="cc-sr-only">
        {t('title')}
      </Typography.Title>
      <Suspense fallback={<PageSpinner />}>
        <Whiteboard />
      </Suspense>
    </div>
  );
}
