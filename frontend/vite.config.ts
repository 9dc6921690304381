import { fileURLToPath, URL } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, loadEnv } from 'vite';
import { sizeBudget } from './build/size-budget.ts';

const src = fileURLToPath(new URL('./src', import.meta.url));
const machines = fileURLToPath(new URL('../machines/src/index.ts', import.meta.url));

export default defineConfig(({ mode }) => ({
  define: {
    // README "XState inspector": off unless VITE_XSTATE_INSPECT=true at build/dev time.
    __XSTATE_INSPECT__: JSON.stringify(
      (process.env.VITE_XSTATE_INSPECT ??
        loadEnv(mode, process.cwd(), 'VITE_').VITE_XSTATE_INSPECT) === 'true',
    ),
  },
  plugins: [
    react(),
    sizeBudget({
      homeJs: 110 * 1024,
      homeCss: 20 * 1024,
      routeChunk: 40 * 1024,
      homeRoute: 'src/app/routes/home.tsx',
    }),
  ],
  resolve: {
    alias: [
      { find: /^@awhh\/machines$/, replacement: machines },
      { find: /^@\//, replacement: `${src}/` },
    ],
  },
  server: {
    proxy: {
      '/api': 'http://localhost:3000',
      '/media': 'http://localhost:3000',
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    // Every browser that runs this bundle supports modulepreload natively.
    modulePreload: { polyfill: false },
    // The server reads it to preload each page's own chunks with the HTML (backend/src/site).
    manifest: true,
    // The logo as a cacheable file rather than a data URI inside the first-load JS.
    assetsInlineLimit: 0,
  },
}));
