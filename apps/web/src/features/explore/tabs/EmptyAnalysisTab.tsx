import { Empty, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { TAB_NEEDS_KEYS } from '../i18nKeys';

/** Real empty state of a tab whose analysis has not been run for this dataset. */
export function EmptyAnalysisTab({ tabKey }: { tabKey: string }) {
  const { t } = useTranslation('explore');
  return (
    <Empty
      data-testid={`empty-${tabKey}`}
      description={
        <>
          <Typography.Paragraph strong>{t('tabs.notRun')}</Typography.Paragraph>
          <Typography.Paragraph type="secondary">{t(TAB_NEEDS_KEYS[tabKey]!)}</Typography.Paragraph>
        </>
      }
    />
  );
}
