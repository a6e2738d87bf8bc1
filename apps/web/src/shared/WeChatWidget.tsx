import { lazy, Suspense } from 'react';
import { useIsChina } from './useIsChina';

const WeChatPopover = lazy(() => import('./WeChatPopover'));

/** WeChat help widget, China region only (docs/product/overview.md#footer-and-contact); its code loads only there. */
export function WeChatWidget() {
  const cn = useIsChina();
  if (!cn) return null;
  return (
    <Suspense fallback={null}>
      <WeChatPopover />
    </Suspense>
  );
}
