import { defineProject } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { workspaceAliases } from '../../vitest.shared.ts';

export default defineProject({
  plugins: [react()],
  resolve: { alias: workspaceAliases },
  test: {
    name: 'chat-ui',
    environment: 'jsdom',
    testTimeout: 20_000,
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./test/setup.ts'],
  },
});
