/** Public routes (docs/product/screens.md#public-routes) plus the auth screens; everything else needs a token. */
export const PUBLIC_PATHS = ['/', '/migration', '/domain', '/login', '/signup', '/forgot-password', '/404'];

/** `/login?redirect=<page left>`; a public page left is not worth returning to. */
export function loginRedirectPath(left: string): string {
  const path = left.split('?')[0] ?? '/';
  if (PUBLIC_PATHS.includes(path)) return '/login';
  return `/login?redirect=${encodeURIComponent(left)}`;
}

/** Where to go after login: only same-site paths are accepted. */
export function safeRedirect(target: string | null): string {
  if (!target || !target.startsWith('/') || target.startsWith('//')) return '/my_analyzes';
  return target;
}
