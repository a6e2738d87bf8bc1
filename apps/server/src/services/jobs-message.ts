import type { Locale } from '@cellcloud/contracts';
import '../i18n/job-failures';
import { hasMessage, translate } from '../i18n/translate';

/**
 * A job's failure message is stored once and shown in each reader's language: a translatable
 * failure is stored as `i18n:{"key":…,"params":…,"text":…}` and rendered per request; any other
 * stored text (an unexpected error) is shown as it is.
 */
const PREFIX = 'i18n:';

export function encodeJobMessage(key: string, params: Record<string, unknown>, text: string): string {
  return PREFIX + JSON.stringify({ key, params, text: text.slice(0, 500) });
}

export function renderJobMessage(stored: string | null, locale: Locale): string | null {
  if (!stored?.startsWith(PREFIX)) return stored;
  try {
    const m = JSON.parse(stored.slice(PREFIX.length)) as {
      key: string;
      params: Record<string, unknown>;
      text: string;
    };
    return hasMessage(m.key) ? translate(locale, m.key, m.params) : m.text;
  } catch {
    return stored;
  }
}
