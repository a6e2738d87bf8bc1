/**
 * Excalidraw resolves its font URLs when its module is evaluated: the self-hosted path must be set
 * before `@excalidraw/excalidraw` is imported (ES imports run in order; an assignment in the
 * importing module's body runs too late and the fonts came from the public CDN, which the
 * Content-Security-Policy — and an offline install — refuses).
 */
declare global {
  interface Window {
    EXCALIDRAW_ASSET_PATH?: string | string[];
  }
}
window.EXCALIDRAW_ASSET_PATH = '/excalidraw-assets/';

export {};
