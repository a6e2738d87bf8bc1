import type { Locale } from '@cellcloud/contracts';
import { enUS } from './messages.en-US';
import { zhCN } from './messages.zh-CN';

/**
 * Message catalogs by locale. Feature areas register extra catalogs with `registerMessages`
 * (one file pair per area, e.g. src/i18n/accounts.ts) so this file does not grow with features.
 */
const catalogs: Record<Locale, Record<string, string>> = { 'en-US': { ...enUS }, 'zh-CN': { ...zhCN } };

export function registerMessages(messages: {
  'en-US': Record<string, string>;
  'zh-CN': Record<string, string>;
}) {
  const en = Object.keys(messages['en-US']);
  const zh = new Set(Object.keys(messages['zh-CN']));
  const missing = en.filter((k) => !zh.has(k));
  if (missing.length || zh.size !== en.length) {
    throw new Error(`zh-CN catalog out of step with en-US: ${missing.join(', ') || 'extra keys'}`);
  }
  Object.assign(catalogs['en-US'], messages['en-US']);
  Object.assign(catalogs['zh-CN'], messages['zh-CN']);
}

export function translate(locale: Locale, key: string, params: Record<string, unknown> = {}): string {
  const template = catalogs[locale][key] ?? catalogs['en-US'][key] ?? key;
  return template.replace(/\{(\w+)\}/g, (m, name: string) => (name in params ? String(params[name]) : m));
}

export function hasMessage(key: string): boolean {
  return key in catalogs['en-US'];
}

export function allCatalogs() {
  return catalogs;
}
