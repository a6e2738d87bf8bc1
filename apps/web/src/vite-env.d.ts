/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** 'region' (default) or 'zh': how the first-visit language is chosen. */
  readonly VITE_DEFAULT_LOCALE_MODE?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
