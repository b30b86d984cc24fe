import type { StorybookConfig } from '@storybook/react-vite';
import { workspaceAliases } from '../vitest.shared.ts';

const config: StorybookConfig = {
  stories: ['../packages/chat-ui/src/**/*.stories.@(ts|tsx)'],
  framework: { name: '@storybook/react-vite', options: {} },
  core: { disableTelemetry: true },
  async viteFinal(viteConfig) {
    const { mergeConfig } = await import('vite');
    return mergeConfig(viteConfig, { resolve: { alias: workspaceAliases } });
  },
};

export default config;
