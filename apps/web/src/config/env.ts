/**
 * Build-time settings (Vite env). VITE_DEFAULT_LOCALE_MODE:
 *  - 'region' (default): first visit shows zh-CN when GET /account/criteriaIpAddress answers
 *    countryIsoCode CN, en-US otherwise (docs/product/overview.md#language-and-region, region reading).
 *  - 'zh': first visit always shows zh-CN (docs/product/overview.md#language-and-region, fixed-Chinese reading).
 * A language the user picked (stored locally) always wins.
 */
export type LocaleMode = 'region' | 'zh';
export const DEFAULT_LOCALE_MODE: LocaleMode =
  import.meta.env.VITE_DEFAULT_LOCALE_MODE === 'zh' ? 'zh' : 'region';
