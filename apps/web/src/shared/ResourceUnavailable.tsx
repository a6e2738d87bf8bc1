import { Button, Result } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';

/**
 * docs/product/errors.md#status-handling "Resource does not exist" for a page that loads something by id (an analysis, a
 * sub-celltype analysis, a task, an upload) that does not exist or belongs to someone else: the
 * same translated page in both cases (no internal URL, no advice to re-run), with a way back.
 */
export function ResourceUnavailable() {
  const { t } = useTranslation('errors');
  const navigate = useNavigate();
  return (
    <Result
      status="404"
      title={t('notFound')}
      subTitle={t('notFoundBody')}
      data-testid="resource-unavailable"
      extra={
        <Button type="primary" onClick={() => navigate('/my_analyzes')}>
          {t('backToAnalyses')}
        </Button>
      }
    />
  );
}
