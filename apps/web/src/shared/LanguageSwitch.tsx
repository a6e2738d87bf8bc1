import { Button } from 'antd';
import { GlobalOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { setLocale } from '../i18n';

/** zh-CN ⇄ en-US; the choice is stored locally (docs/product/overview.md#language-and-region). */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation('common');
  const next = i18n.language === 'zh-CN' ? 'en-US' : 'zh-CN';
  return (
    <Button
      type="text"
      icon={<GlobalOutlined />}
      data-testid="language-switch"
      aria-label={t('language.switchTo')}
      onClick={() => setLocale(next, true)}
    >
      {t('language.other')}
    </Button>
  );
}
