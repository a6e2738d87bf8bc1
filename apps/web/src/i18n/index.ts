import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { localeSchema, type Locale } from '@cellcloud/contracts';
import { storage, STORAGE_KEYS } from '../shared/storage';
import { DEFAULT_LOCALE_MODE } from '../config/env';

/**
 * react-i18next with one namespace per feature: locales/<locale>/<namespace>.json.
 * en-US is the key source; zh-CN has exactly the same keys (apps/web/test/locales.test.ts).
 * Code uses `useTranslation('<ns>')` + `t('key')`, or `t('<ns>:key')` across namespaces.
 */
const files = import.meta.glob<{ default: Record<string, unknown> }>('./locales/*/*.json', { eager: true });

const resources: Record<string, Record<string, Record<string, unknown>>> = {};
for (const [path, mod] of Object.entries(files)) {
  const m = /\.\/locales\/([^/]+)\/([^/]+)\.json$/.exec(path);
  if (!m) continue;
  const [, locale, ns] = m as unknown as [string, string, string];
  (resources[locale] ??= {})[ns] = mod.default;
}
export const namespaces = Object.keys(resources['en-US'] ?? {});

/** The locale the user picked, if any. */
export function storedLocale(): Locale | null {
  const parsed = localeSchema.safeParse(storage.get(STORAGE_KEYS.locale));
  return parsed.success ? parsed.data : null;
}

/** First guess before the region answer: stored choice, the fixed-Chinese setting, the browser. */
function initialLocale(): Locale {
  const stored = storedLocale();
  if (stored) return stored;
  if (DEFAULT_LOCALE_MODE === 'zh') return 'zh-CN';
  return navigator.language.toLowerCase().startsWith('zh') ? 'zh-CN' : 'en-US';
}

void i18n.use(initReactI18next).init({
  resources,
  lng: initialLocale(),
  fallbackLng: 'en-US',
  supportedLngs: ['en-US', 'zh-CN'],
  ns: namespaces,
  defaultNS: 'common',
  interpolation: { escapeValue: false },
  returnNull: false,
});

export function currentLocale(): Locale {
  return i18n.language === 'zh-CN' ? 'zh-CN' : 'en-US';
}

/** Switch language; `remember` stores the choice (the user's explicit pick). */
export function setLocale(locale: Locale, remember: boolean): void {
  if (remember) storage.set(STORAGE_KEYS.locale, locale);
  document.documentElement.lang = locale;
  void i18n.changeLanguage(locale);
}

document.documentElement.lang = initialLocale();
export default i18n;
