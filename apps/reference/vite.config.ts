import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { workspaceAliases } from '../../vitest.shared.ts';
import { routePreloads } from '../../scripts/routePreloads.mjs';

const apiTarget = process.env.CONFAB_API ?? 'http://127.0.0.1:8090';

export default defineConfig({
  plugins: [react(), routePreloads()],
  resolve: { alias: workspaceAliases },
  server: {
    port: 5173,
    proxy: { '/api': { target: apiTarget, ws: true } },
  },
  build: {
    outDir: 'dist',
    sourcemap: true,
    manifest: true,
    rolldownOptions: {
      output: {
        // React in one chunk of its own: it changes less often than the app (long-cached), and
        // keeps jsx-runtime and scheduler out of small shared chunks (about 0.6 kB gzip a route).
        codeSplitting: {
          groups: [{ name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 2 }],
        },
      },
    },
  },
});
