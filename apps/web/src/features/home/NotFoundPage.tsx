import { Button, Result } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PublicLayout } from '../../shared/PublicLayout';

/** /404: unknown route, or a route the user's privileges disable or hide (docs/product/permissions.md#privileges). */
export default function NotFoundPage() {
  const { t } = useTranslation('home');
  const navigate = useNavigate();
  return (
    <PublicLayout>
      <Result
        status="404"
        title="404"
        subTitle={t('notFound.body')}
        extra={
          <Button type="primary" onClick={() => navigate('/my_analyzes')} data-testid="not-found-home">
            {t('notFound.back')}
          </Button>
        }
      >
        <div style={{ textAlign: 'center' }}>{t('notFound.subscription')}</div>
      </Result>
    </PublicLayout>
  );
}
