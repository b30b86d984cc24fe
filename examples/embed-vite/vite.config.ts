import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Port 5174: another origin than confab-server (8090), listed in its CONFAB_ALLOWED_ORIGINS.
export default defineConfig({
  plugins: [react()],
  server: { port: 5174, strictPort: true },
  preview: { port: 5174, strictPort: true },
});
