import { Button, Result } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PublicLayout } from '../../shared/PublicLayout';

/** /migration: the notice shown while accounts and data move to this platform. */
export default function MigrationPage() {
  const { t } = useTranslation('home');
  const navigate = useNavigate();
  return (
    <PublicLayout>
      <Result
        status="info"
        title={t('migration.title')}
        subTitle={t('migration.body')}
        extra={
          <Button type="primary" onClick={() => navigate('/login')}>
            {t('hero.login')}
          </Button>
        }
      />
    </PublicLayout>
  );
}
