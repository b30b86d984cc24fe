import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { workspaceAliases } from '../../vitest.shared.ts';

const apiTarget = process.env.CONFAB_API ?? 'http://127.0.0.1:8090';

export default defineConfig({
  plugins: [react()],
  resolve: { alias: workspaceAliases },
  server: {
    port: 5173,
    proxy: { '/api': { target: apiTarget, ws: true } },
  },
  build: { outDir: 'dist', sourcemap: true, manifest: true },
});
