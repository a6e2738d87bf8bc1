import { Button, Card, Space, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';

/**
 * The public database page for a user whose plan does not include it (docs/product/permissions.md
 * "Public database"): what the database is, what the plan lacks and how to get it, instead of an
 * empty table and a "Resource Unavailable" toast (issue 31).
 */
export function PublicAccessPanel() {
  const { t } = useTranslation('publicdb');
  const navigate = useNavigate();
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid="publicdb-no-access">
      <Typography.Title level={2}>{t('title')}</Typography.Title>
      <Typography.Paragraph>{t('access.what')}</Typography.Paragraph>
      <Card title={t('access.title')}>
        <Typography.Paragraph>{t('access.why')}</Typography.Paragraph>
        <Typography.Paragraph>{t('access.how')}</Typography.Paragraph>
        <Space wrap>
          <Button type="primary" data-testid="publicdb-request-access" onClick={() => navigate('/contact')}>
            {t('access.request')}
          </Button>
          <Button onClick={() => navigate('/my_analyzes')}>{t('access.back')}</Button>
        </Space>
      </Card>
    </Space>
  );
}
