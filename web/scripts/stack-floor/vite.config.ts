// The weight floor of the stack DESIGN.md prescribes (React, react-router, MUI, i18next, notistack,
// aws-amplify's REST client, react-hook-form with zod, MUI X Data Grid and Charts): a sign-in form
// and a screen with a line chart and a server-paged grid, nothing else. `npm run size:floor`
// builds it and prints what each page loads, compressed as `npm run size` counts it.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  root: here('.'),
  plugins: [react()],
  resolve: { alias: [{ find: /^react-router$/, replacement: here('../../node_modules/react-router/dist/production/index.mjs') }] },
  build: { outDir: here('../../dist-floor'), emptyOutDir: true, chunkSizeWarningLimit: 2000 },
});
