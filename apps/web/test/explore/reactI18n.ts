import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createInstance, type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';

/** The languages the app ships (en-US is the key source, zh-CN complete). */
export const LOCALES = ['en-US', 'zh-CN'] as const;

const locales = path.resolve(__dirname, '../../src/i18n/locales');

/**
 * An i18next instance for React components with the app's REAL locale files of `namespaces`
 * (the first is the default), both languages loaded, English first: component tests render with
 * it through I18nextProvider (react-dom/server, the repo has no DOM for component tests).
 */
export async function reactI18n(namespaces: string[]): Promise<I18n> {
  const load = (loc: string, ns: string) =>
    JSON.parse(readFileSync(path.join(locales, loc, `${ns}.json`), 'utf8')) as Record<string, unknown>;
  const i18n = createInstance();
  await i18n.use(initReactI18next).init({
    lng: 'en-US',
    fallbackLng: false,
    ns: namespaces,
    defaultNS: namespaces[0],
    resources: Object.fromEntries(
      LOCALES.map((l) => [l, Object.fromEntries(namespaces.map((ns) => [ns, load(l, ns)]))]),
    ),
    interpolation: { escapeValue: false },
    react: { useSuspense: false },
  });
  return i18n;
}
