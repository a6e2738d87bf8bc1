import { cpSync, existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * Excalidraw (/app1) loads its fonts from `window.EXCALIDRAW_ASSET_PATH`, else from a public
 * CDN. We serve them ourselves under /excalidraw-assets/ (copied into dist at build, served from
 * node_modules in dev) so the whiteboard works offline and behind firewalls.
 */
function excalidrawAssets(): Plugin {
  const require = createRequire(import.meta.url);
  // resolves to …/@excalidraw/excalidraw/dist/prod/index.js (the "default" export condition)
  const fonts = path.join(path.dirname(require.resolve('@excalidraw/excalidraw')), 'fonts');
  let outDir = 'dist';
  return {
    name: 'cellcloud-excalidraw-assets',
    configResolved(c) {
      outDir = path.resolve(c.root, c.build.outDir);
    },
    configureServer(server) {
      server.middlewares.use('/excalidraw-assets/fonts', (req, res, next) => {
        const file = path.join(fonts, decodeURIComponent((req.url ?? '').split('?')[0] ?? ''));
        if (!file.startsWith(fonts) || !existsSync(file)) return next();
        res.setHeader('content-type', file.endsWith('.woff2') ? 'font/woff2' : 'application/octet-stream');
        res.end(readFileSync(file));
      });
    },
    closeBundle() {
      if (existsSync(fonts))
        cpSync(fonts, path.join(outDir, 'excalidraw-assets', 'fonts'), { recursive: true });
    },
  };
}

/**
 * Dev: `npm run dev -w @cellcloud/web` serves on :5173 and proxies /api to the API on :8080.
 * Build: `npm run build -w @cellcloud/web` writes apps/web/dist, which the API process serves.
 *
 * Build-time settings (Vite env, see apps/web/README.md):
 *  - VITE_DEFAULT_LOCALE_MODE = region (default: zh-CN for visitors whose region is CN, en-US
 *    otherwise) | zh (always zh-CN until the user switches).
 */
export default defineConfig({
  plugins: [react(), excalidrawAssets()],
  server: {
    port: 5173,
    proxy: { '/api': { target: 'http://127.0.0.1:8080', changeOrigin: false } },
  },
  build: {
    outDir: 'dist',
    sourcemap: false,
    manifest: true,
    chunkSizeWarningLimit: 2000,
  },
});
