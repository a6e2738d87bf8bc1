import i18n, { type BackendModule } from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Locale } from '@cellcloud/contracts/locale';
import { storage, STORAGE_KEYS } from '../shared/storage';
import { DEFAULT_LOCALE_MODE } from '../config/env';

/**
 * react-i18next with one namespace per feature: locales/<locale>/<namespace>.json.
 * en-US is the key source; zh-CN has exactly the same keys (apps/web/test/locales.test.ts).
 * Code uses `useTranslation('<ns>')` + `t('key')`, or `t('<ns>:key')` across namespaces.
 *
 * Each JSON file is its own chunk, loaded on demand for the current language only (a page's
 * `useTranslation('<ns>')` suspends until its namespace arrived), which keeps the first load of
 * /login small.
 */
const files = import.meta.glob<{ default: Record<string, unknown> }>('./locales/*/*.json');

export const namespaces = Object.keys(files)
  .map((p) => /\.\/locales\/en-US\/([^/]+)\.json$/.exec(p)?.[1])
  .filter((n): n is string => Boolean(n));

/**
 * The `tasks` namespace = locales/<locale>/tasks.json (the run panel's own strings) + each task
 * folder's messages/<locale>.json under the task's camelCase key (packages/tasks), so a task's
 * keys read `cellScore.view.genes` wherever they are used. Loaded with the namespace.
 */
async function taskMessages(): Promise<Record<Locale, Record<string, unknown>>> {
  const { TASK_MESSAGES } = await import('@cellcloud/tasks/messages');
  const out: Record<Locale, Record<string, unknown>> = { 'en-US': {}, 'zh-CN': {} };
  for (const m of Object.values(TASK_MESSAGES)) {
    out['en-US'][m.key] = m['en-US'];
    out['zh-CN'][m.key] = m['zh-CN'];
  }
  return out;
}

const lazyBackend: BackendModule = {
  type: 'backend',
  init: () => undefined,
  read(language, namespace, callback) {
    const load = files[`./locales/${language}/${namespace}.json`];
    if (!load) {
      callback(new Error(`no translations for ${language}/${namespace}`), false);
      return;
    }
    const loading =
      namespace === 'tasks' ? Promise.all([load(), taskMessages()]) : load().then((m) => [m] as const);
    loading.then(
      ([m, perTask]) =>
        callback(null, perTask ? { ...m.default, ...perTask[language as Locale] } : m.default),
      (e: unknown) => callback(e instanceof Error ? e : new Error(String(e)), false),
    );
  },
};

/** The locale the user picked, if any. */
export function storedLocale(): Locale | null {
  // a plain check (no zod): this module is part of the first load
  const v = storage.get(STORAGE_KEYS.locale);
  return v === 'en-US' || v === 'zh-CN' ? v : null;
}

/** First guess before the region answer: stored choice, the fixed-Chinese setting, the browser. */
function initialLocale(): Locale {
  const stored = storedLocale();
  if (stored) return stored;
  if (DEFAULT_LOCALE_MODE === 'zh') return 'zh-CN';
  return navigator.language.toLowerCase().startsWith('zh') ? 'zh-CN' : 'en-US';
}

void i18n
  .use(lazyBackend)
  .use(initReactI18next)
  .init({
    lng: initialLocale(),
    // zh-CN is complete (locales test), so no fallback language has to be downloaded too
    fallbackLng: false,
    supportedLngs: ['en-US', 'zh-CN'],
    ns: ['common', 'shell', 'errors', 'validation'],
    defaultNS: 'common',
    load: 'currentOnly',
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
