/// <reference types="vitest/config" />
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { mapPlaces } from './scripts/map-places.ts';

/** The keywords of a property that `src/api/limits.ts` reads. */
const LIMIT_KEYWORDS = ['maxLength', 'minLength', 'minimum', 'maximum', 'pattern', 'maxItems', 'minItems'];

type Json = { [key: string]: unknown };

function trimProperty(property: Json): Json {
  const out: Json = {};
  for (const keyword of LIMIT_KEYWORDS) if (property[keyword] !== undefined) out[keyword] = property[keyword];
  for (const list of ['oneOf', 'anyOf', 'allOf']) {
    const variants = property[list];
    if (Array.isArray(variants)) out[list] = variants.map((variant: Json) => trimProperty(variant));
  }
  return out;
}

/**
 * The forms import `openapi.json` for its limits; the app ships only the schemas' `required`
 * lists and limit keywords, not the whole document (descriptions, paths).
 */
function openApiLimits(): Plugin {
  return {
    name: 'vendfleet-openapi-limits',
    enforce: 'pre',
    load(id) {
      if (!id.endsWith('/openapi.json')) return null;
      const document = JSON.parse(readFileSync(id, 'utf8')) as { components?: { schemas?: Record<string, Json> } };
      const schemas: Record<string, Json> = {};
      for (const [name, schema] of Object.entries(document.components?.schemas ?? {})) {
        const properties = (schema.properties ?? {}) as Record<string, Json>;
        schemas[name] = {
          required: schema.required ?? [],
          properties: Object.fromEntries(Object.entries(properties).map(([field, property]) => [field, trimProperty(property)])),
        };
      }
      return JSON.stringify({ components: { schemas } });
    },
  };
}

/**
 * react-router's package exports name only its development build (warnings on); a production bundle
 * takes the production build beside it (remix-run/react-router#14102).
 */
const REACT_ROUTER_PRODUCTION = fileURLToPath(new URL('./node_modules/react-router/dist/production/index.mjs', import.meta.url));

/**
 * The installable refiller's app (issue 30): a Workbox service worker (generateSW) precaches the
 * app shell, answers every page address with index.html when offline, and fetches nothing from
 * elsewhere. The app registers it from /my-day only (src/app/register-sw.ts).
 */
const pwa = VitePWA({
  registerType: 'autoUpdate',
  injectRegister: false,
  manifest: {
    name: 'Vendfleet — My day',
    short_name: 'My day',
    description: 'The refiller’s routes, stops and bookings, offline first.',
    start_url: '/my-day',
    scope: '/',
    display: 'standalone',
    orientation: 'portrait',
    background_color: '#FFFFFF',
    theme_color: '#00A76F',
    icons: [
      { src: '/pwa-192.png', sizes: '192x192', type: 'image/png' },
      { src: '/pwa-512.png', sizes: '512x512', type: 'image/png' },
      { src: '/pwa-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  },
  includeAssets: ['favicon.svg', 'apple-touch-icon.png'],
  workbox: {
    globPatterns: ['**/*.{js,css,html,svg,png,woff2}'],
    // The map's place names and the world atlas are the largest chunks: they are needed offline too.
    maximumFileSizeToCacheInBytes: 6 * 1024 * 1024,
    navigateFallback: 'index.html',
    // API calls and file downloads are never answered by the shell.
    navigateFallbackDenylist: [/^\/api\//, /^\/files\//, /^\/auth\/(?!jwt\/)/],
    cleanupOutdatedCaches: true,
    clientsClaim: true,
    runtimeCaching: [
      // The deployment's runtime configuration: fresh when online, the last copy offline.
      { urlPattern: ({ url, sameOrigin }) => sameOrigin && url.pathname === '/config.json', handler: 'NetworkFirst', options: { cacheName: 'config', networkTimeoutSeconds: 3 } },
    ],
  },
  devOptions: { enabled: false },
});

export default defineConfig(({ command }) => ({
  plugins: [openApiLimits(), mapPlaces(), react(), pwa],
  resolve: command === 'build' ? { alias: [{ find: /^react-router$/, replacement: REACT_ROUTER_PRODUCTION }] } : {},
  server: {
    port: 5173,
    // `npm run dev` talks to a `vendfleet serve` on 8080.
    proxy: {
      '/api': 'http://127.0.0.1:8080',
      '/auth': 'http://127.0.0.1:8080',
      '/files': 'http://127.0.0.1:8080',
    },
  },
  build: {
    outDir: 'dist',
    sourcemap: false,
    chunkSizeWarningLimit: 1200,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // What the entry imports statically goes to one chunk: every page loads all of it anyway,
          // and one file compresses better than the dozen the automatic split made of it.
          groups: [{ name: 'shell', tags: ['$initial'] }],
        },
      },
    },
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
    // One process runs file after file: no new process, jsdom and dependency imports a file (most
    // of the time of a file with few tests). src/test/setup.ts gives each file fresh modules of src/
    // and an empty <head>, as in a process of its own.
    isolate: false,
    // Screens with the data grid take seconds to mount on a busy 2-core machine (CI builds Rust
    // beside them): a slow test is not a failing one.
    testTimeout: 20_000,
  },
}));
