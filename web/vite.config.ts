/// <reference types="vitest/config" />
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

/** Writes .gz and .br beside every text asset; the server sends them (@fastify/static preCompressed). */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'panel-precompress',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const walk = (dir: string): string[] =>
        fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
      for (const file of walk(outDir)) {
        if (!/\.(js|mjs|css|html|json|svg|webmanifest)$/.test(file) || file.includes(`${path.sep}.vite${path.sep}`)) continue;
        const data = fs.readFileSync(file);
        if (data.length < 1024) continue;
        fs.writeFileSync(`${file}.gz`, zlib.gzipSync(data, { level: 9 }));
        fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }));
      }
    },
  };
}

/**
 * `texts.json?<part>-texts` (i18n/signedInTexts.ts and each feature's texts.ts): the file's top-level
 * namespaces as named exports of a module of its own, so each chunk carries only the namespaces it
 * imports and none is pulled into the entry, which imports the same file for the signed-out texts.
 */
function textParts(): Plugin {
  const PART = /\.json\?[a-z-]+-texts$/;
  return {
    name: 'panel-text-parts',
    enforce: 'pre',
    load(id) {
      if (!PART.test(id)) return null;
      const file = id.slice(0, id.indexOf('?'));
      this.addWatchFile(file);
      const texts = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
      // string export names: a namespace may be a reserved word (`export`) or no identifier at all
      const names = Object.keys(texts);
      const values = names.map((ns, i) => `const n${i} = ${JSON.stringify(texts[ns])};`);
      const exports = names.map((ns, i) => `n${i} as ${JSON.stringify(ns)}`);
      return { code: `${values.join('\n')}\nexport { ${exports.join(', ')} };\n`, moduleType: 'js' };
    },
  };
}

/** The paths public.html answers (the light pages); the server (app.ts) and the service worker keep them too. */
const PUBLIC_PAGE = /^\/(?:auth\/sign-in|minha-conta|teste\/[^/]+)\/?$/;

/** Dev server: the light pages' paths get public.html, as the Fastify server does in production. */
function publicPages(): Plugin {
  return {
    name: 'panel-public-pages',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use((req, _res, next) => {
        const [pathname, query] = (req.url ?? '').split('?');
        if (req.method === 'GET' && pathname && PUBLIC_PAGE.test(pathname)) req.url = `/public.html${query ? `?${query}` : ''}`;
        next();
      });
    },
  };
}

// Pages are split per route (lazyRouteComponent in src/router.tsx); the dev server
// proxies the API to the Fastify server, which also serves web/dist in production.
export default defineConfig({
  plugins: [
    textParts(),
    publicPages(),
    react(),
    // Installable: manifest, icons and a service worker that caches the app shell only; API
    // answers and short links always go to the network. The app registers it itself once the page
    // is up (src/lib/serviceWorker.ts), so its precache does not compete with the first load.
    VitePWA({
      injectRegister: false,
      registerType: 'autoUpdate',
      includeAssets: ['icons/favicon-32.png', 'icons/apple-touch-icon-180.png'],
      manifest: {
        name: 'Painel do Revendedor',
        short_name: 'Painel',
        description: 'Painel de revenda: clientes, créditos e revendedores.',
        lang: 'pt-BR',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        background_color: '#ffffff',
        theme_color: '#1c7ed6',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      workbox: {
        globPatterns: ['**/*.{js,css,html,png,webmanifest}'],
        navigateFallback: '/index.html',
        // the light pages are public.html (from the network: they never register this worker)
        navigateFallbackDenylist: [/^\/api(\/|$)/, /^\/s\//, PUBLIC_PAGE],
        runtimeCaching: [],
        cleanupOutdatedCaches: true,
        clientsClaim: true,
        skipWaiting: true,
      },
    }),
    precompress(),
  ],
  server: {
    port: 5173,
    proxy: { '/api': { target: 'http://127.0.0.1:3000', changeOrigin: true } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    manifest: true, // read by scripts/bundle-budget.mjs
    chunkSizeWarningLimit: 700,
    rolldownOptions: {
      // Two pages: the panel (index.html) and the light pages opened from a link (public.html: sign-in,
      // /minha-conta, /teste/<slug>), which share nothing heavy with the panel (docs/decisions.md).
      input: { index: path.resolve(import.meta.dirname, 'index.html'), public: path.resolve(import.meta.dirname, 'public.html') },
      output: {
        codeSplitting: {
          // A shared module smaller than this is copied into each chunk that uses it instead of being
          // a file of its own (an icon, a query key): a route's first load is ~20 requests, not ~70.
          experimentalInlineCommonChunks: { maxSize: 6000 },
          groups: [
            // React itself: both pages run it (a group of its own, so the light pages do not fetch the panel's vendor chunk).
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 25 },
            // What every panel page runs: one cacheable chunk instead of dozens.
            { name: 'vendor', test: /node_modules[\\/](@tanstack|i18next|react-i18next|use-sync-external-store)[\\/]/, priority: 20 },
            // UI-kit pieces most pages use, in one file instead of dozens of small ones.
            // Not the form state, number inputs and their formatter, switches: only forms and modals opened by a click use them.
            { name: 'ui', test: /node_modules[\\/](?!@mantine[\\/]form[\\/]|@mantine[\\/]core[\\/]esm[\\/]components[\\/](?:NumberInput|Switch)[\\/])(@mantine|@floating-ui|react-remove-scroll|react-style-singleton|use-callback-ref|use-sidecar|tslib|clsx|get-nonce|detect-node-es|aria-hidden)[\\/]/, minShareCount: 12, priority: 15 },
          ],
        },
      },
    },
  },
  test: {
    include: ['src/**/*.test.ts'],
    // Unit tests run with every text (the app loads them in parts: the entry, the layout, each feature).
    setupFiles: ['src/i18n/allTexts.ts'],
    environment: 'node',
  },
});
