import { z } from 'zod';

/** The two locales of the product (docs/product/overview.md#language-and-region). en-US is the key source. */
export const locales = ['en-US', 'zh-CN'] as const;
export const localeSchema = z.enum(locales);
export type Locale = z.infer<typeof localeSchema>;

/** Pick a supported locale from an Accept-Language / x-lang header value. */
export function pickLocale(header: string | undefined | null): Locale {
  if (!header) return 'en-US';
  const h = header.toLowerCase();
  return h.startsWith('zh') ? 'zh-CN' : 'en-US';
}
