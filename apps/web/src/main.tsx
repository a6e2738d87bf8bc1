import './app/zod-csp'; // first: no eval probe under the CSP
import { StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import './i18n';
import './app/global.css';
import { Providers } from './app/Providers';
import { router } from './app/router';
import { PageSpinner } from './shared/PageSpinner';

// A chunk that fails to load rejects its dynamic import; lazyPage turns that into a
// ChunkLoadError and the route's error boundary shows the reload prompt (docs/product/errors.md#chunk-load-errors).
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Providers>
      {/* translations load per namespace; the first ones arrive before anything renders */}
      <Suspense fallback={<PageSpinner />}>
        <RouterProvider router={router} />
      </Suspense>
    </Providers>
  </StrictMode>,
);
