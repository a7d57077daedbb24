import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The API service serves dist/ at {app_origin}/ (services/api/src/http/dashboard-assets.ts):
// hashed files under /assets/ are cached for a year, index.html never.
export default defineConfig({
  plugins: [react()],
  base: '/',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    // NOTE: the Content-Security-Policy forbids inline scripts; Vite's module preload
    // polyfill is bundled into the entry chunk, and nothing else is inlined.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    sourcemap: false,
    target: 'es2022',
    chunkSizeWarningLimit: 400,
  },
  server: {
    // `npm run dev -w @framedeck/dashboard` next to a running API (npm start): same-origin
    // /api calls are proxied so cookies and CSRF behave as in production.
    proxy: {
      '/api': 'http://127.0.0.1:8080',
      '/oauth': 'http://127.0.0.1:8080',
    },
  },
});
