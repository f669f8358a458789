import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

// The web app's root is this folder; the server serves the build from dist/web (src/plugins/web.ts).
// scripts/build-web.ts builds it (npm run build:web); `npm run dev:web` serves it with hot reload,
// passing /api to a server started with `npm run dev`.
export default defineConfig({
  plugins: [
    react(),
    // The installable app (docs/pwa.md): the manifest, and the one service worker built from
    // src/sw.ts (precache of the build injected into it; push included). The page registers it
    // itself, after load (src/pwa/register.ts), and asks before an update takes over.
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src',
      filename: 'sw.ts',
      registerType: 'prompt',
      injectRegister: false,
      manifestFilename: 'manifest.webmanifest',
      includeManifestIcons: false,
      manifest: {
        id: '/',
        name: 'Deskbook',
        short_name: 'Deskbook',
        description: 'Book a desk, see your reservations and who is in.',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        theme_color: '#1f4fd1',
        background_color: '#ffffff',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      injectManifest: {
        // The app shell: index.html, every script, stylesheet and font of the build, and the icons.
        globPatterns: ['index.html', 'assets/**/*.{js,css,svg,png,woff2}', 'icons/*.png', 'manifest.webmanifest'],
        rollupFormat: 'iife',
      },
      devOptions: { enabled: false },
    }),
  ],
  base: '/',
  // web/public holds the app's icons, copied to the build's root as they are (docs/pwa.md#installing).
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
