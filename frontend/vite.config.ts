import { fileURLToPath, URL } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, loadEnv } from 'vite';
import { fontSubsets, SITE_FONTS } from './build/font-subsets.ts';
import { sizeBudget } from './build/size-budget.ts';

const src = fileURLToPath(new URL('./src', import.meta.url));
const machines = fileURLToPath(new URL('../machines/src/index.ts', import.meta.url));
const reactRouterProduction = fileURLToPath(
  new URL('../node_modules/react-router/dist/production/index.mjs', import.meta.url),
);

/** Chunks of the pages named in the preload note below (`build.modulePreload`). */
const OPENED_FROM_OUTSIDE =
  /^assets\/(einlass|veranstalter|ticket|success|mail-test|waitlist-(confirm|offer|unsubscribe)|(coupon|webhook|apple-pay)-test)-[\w-]{8}\.js$/;

// `vite build` builds the browser's bundles into dist/ (served by nginx), `vite build --ssr`
// the server renderer into dist-ssr/ (imported by the products process, never served).
// The SSR bundle includes its dependencies, so the backend image needs no React of its own.
export default defineConfig(({ mode, isSsrBuild }) => ({
  define: {
    // The server bundle includes React: its production build, whatever NODE_ENV the backend
    // runs with (Vite leaves process.env to the runtime in SSR builds).
    ...(isSsrBuild ? { 'process.env.NODE_ENV': JSON.stringify(mode) } : {}),
    // docs/features.md "XState inspector": off unless VITE_XSTATE_INSPECT=true at build/dev time.
    __XSTATE_INSPECT__: JSON.stringify(
      (process.env.VITE_XSTATE_INSPECT ??
        loadEnv(mode, process.cwd(), 'VITE_').VITE_XSTATE_INSPECT) === 'true',
    ),
  },
  plugins: [
    // src/styles/global.css imports the fonts.css written here (rules "Rendering").
    fontSubsets({
      root: fileURLToPath(new URL('.', import.meta.url)),
      dir: fileURLToPath(new URL('./generated/fonts', import.meta.url)),
      faces: SITE_FONTS,
    }),
    react(),
    isSsrBuild
      ? null
      : sizeBudget({
          // Every route adds its line to the route table in the entry (/veranstalter: 67 bytes
          // gzip, when 23 were left).
          homeJs: 111 * 1024,
          homeCss: 20 * 1024,
          routeChunk: 40 * 1024,
          homeRoute: 'src/app/routes/home.tsx',
        }),
  ],
  ssr: { noExternal: true, target: 'node' },
  resolve: {
    alias: [
      { find: /^@awhh\/machines$/, replacement: machines },
      { find: /^@\//, replacement: `${src}/` },
      // react-router's package exports name only its development build (dev-time checks and
      // warnings); a production build takes the production one beside it, a few KB smaller.
      ...(mode === 'production'
        ? [{ find: /^react-router$/, replacement: reactRouterProduction }]
        : []),
    ],
  },
  server: {
    proxy: {
      '/api': 'http://localhost:3000',
      '/media': 'http://localhost:3000',
    },
  },
  build: isSsrBuild
    ? {
        outDir: 'dist-ssr',
        copyPublicDir: false,
        emptyOutDir: true,
        target: 'node20',
        sourcemap: false,
        minify: false,
        rollupOptions: { input: 'src/entry-server.tsx' },
      }
    : {
        outDir: 'dist',
        emptyOutDir: true,
        target: 'es2022',
        sourcemap: false,
        // Every browser that runs this bundle supports modulepreload natively.
        modulePreload: {
          polyfill: false,
          // The list of what each lazy page needs lives in the entry, so it costs every first
          // load. Pages that are opened from outside (links in mails, the payment provider's
          // return to /success, the door's device, the organizer's /veranstalter, the test
          // pages) keep only their stylesheets there: their first load gets its modules from
          // the server's HTML (backend/src/site), and nobody navigates to them in the site.
          resolveDependencies: (file, deps) =>
            OPENED_FROM_OUTSIDE.test(file) ? deps.filter((dep) => dep.endsWith('.css')) : deps,
        },
        // The server reads it to preload each page's own chunks with the HTML (backend/src/site).
        manifest: true,
        // The logo as a cacheable file rather than a data URI inside the first-load JS.
        assetsInlineLimit: 0,
      },
}));
