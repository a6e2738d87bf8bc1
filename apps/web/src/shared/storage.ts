import { STORAGE_PREFIX } from '@cellcloud/contracts/constants';

/** Local storage with the product's key prefix (docs/product/limits.md#local-storage). Never throws (private mode, quota). */
export const storage = {
  get(key: string): string | null {
    try {
      return window.localStorage.getItem(STORAGE_PREFIX + key);
    } catch {
      return null;
    }
  },
  set(key: string, value: string): void {
    try {
      window.localStorage.setItem(STORAGE_PREFIX + key, value);
    } catch {
      /* storage unavailable: the setting lasts for this page only */
    }
  },
  remove(key: string): void {
    try {
      window.localStorage.removeItem(STORAGE_PREFIX + key);
    } catch {
      /* ignore */
    }
  },
};

/** The keys this app stores, in one place. */
export const STORAGE_KEYS = {
  userInfo: 'userInfo',
  locale: 'locale',
  tutorialDismissed: 'tutorialDismissed',
} as const;
