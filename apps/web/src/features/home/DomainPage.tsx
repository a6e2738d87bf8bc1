import { Button, Result, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useRegion } from '../../api/region';
import { PublicLayout } from '../../shared/PublicLayout';

/** /domain: explains the China and international sites and links both when configured. */
export default function DomainPage() {
  const { t } = useTranslation('home');
  const region = useRegion();
  const domains = region.data?.domains ?? null;
  return (
    <PublicLayout>
      <Result
        status="info"
        title={t('domain.title')}
        subTitle={domains ? t('domain.body') : t('domain.single')}
        extra={
          domains && (
            <Space wrap>
              <Button href={`https://${domains.cn}`}>{t('domain.cn', { domain: domains.cn })}</Button>
              <Button href={`https://${domains.global}`}>
                {t('domain.global', { domain: domains.global })}
              </Button>
            </Space>
          )
        }
      />
    </PublicLayout>
  );
}
