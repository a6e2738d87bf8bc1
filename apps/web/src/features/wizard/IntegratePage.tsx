import { Alert, Button, Card, Empty, Space, Steps, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';

export type IntegrateSource = 'local' | 'public' | 'both';

const STEPS = ['selectSamples', 'cellFiltering', 'analysisOptions', 'preview'] as const;

/**
 * Frame of the initiate/integrate wizard (SPEC §2): 4 steps, Next / Previous / Save as draft /
 * Submit analysis. This release shows step 1 with the sample picker's empty state; the wizard
 * work fills the steps.
 */
export function IntegratePage({ source }: { source: IntegrateSource }) {
  const { t } = useTranslation('wizard');
  const navigate = useNavigate();
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Typography.Title level={2}>{t(`title.${source}`)}</Typography.Title>
      <Typography.Paragraph type="secondary">{t(`intro.${source}`)}</Typography.Paragraph>
      <Steps current={0} items={STEPS.map((s) => ({ title: t(`steps.${s}`) }))} responsive />
      <Card title={t('steps.selectSamples')}>
        {source !== 'local' && <Alert type="info" showIcon title={t('publicNote')} style={{ marginBottom: 16 }} />}
        <Empty description={t(`empty.${source}`)}>
          {source !== 'public' && (
            <Button type="primary" onClick={() => navigate('/importdata')}>
              {t('toImport')}
            </Button>
          )}
        </Empty>
      </Card>
      <Space style={{ justifyContent: 'flex-end', width: '100%' }} wrap>
        <Button disabled>{t('buttons.previous')}</Button>
        <Button disabled>{t('buttons.saveDraft')}</Button>
        <Button type="primary" disabled>
          {t('buttons.next')}
        </Button>
      </Space>
    </Space>
  );
}
