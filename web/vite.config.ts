import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The web app's root is this folder; the server serves the build from dist/web (src/plugins/web.ts).
// scripts/build-web.ts builds it (npm run build:web); `npm run dev:web` serves it with hot reload,
// passing /api to a server started with `npm run dev`.
export default defineConfig({
  plugins: [react()],
  base: '/',
  // web/public holds push-sw.js, copied to the build's root as is (docs/notifications.md#the-web-app).
  publicDir: 'public',
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    assetsDir: 'assets',
    target: 'es2022',
    sourcemap: false,
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:8080' },
  },
});
