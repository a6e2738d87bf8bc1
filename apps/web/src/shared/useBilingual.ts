import { useTranslation } from 'react-i18next';
import type { BilingualText } from '@cellcloud/contracts/content';

/** Picks the current language's text of a bilingual content field. */
export function useBilingual(): (text: BilingualText) => string {
  const { i18n } = useTranslation();
  const locale = i18n.language === 'zh-CN' ? 'zh-CN' : 'en-US';
  return (text) => text[locale] || text['en-US'];
}
