import { useEffect } from 'react';
import { useMatches } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { RouteHandle } from './router';

/** Sets the document title from the deepest route's `handle.title` (shell:title.<key>). */
export function RouteTitle() {
  const matches = useMatches();
  const { t, i18n } = useTranslation('shell');
  const handle = [...matches].reverse().find((m) => (m.handle as RouteHandle | undefined)?.title)?.handle as
    RouteHandle | undefined;
  useEffect(() => {
    const product = t('product.name');
    const titleKey = handle ? `title.${handle.title}` : null;
    document.title = titleKey ? [t(titleKey), product].join(' - ') : product;
  }, [handle, t, i18n.language]);
  return null;
}
