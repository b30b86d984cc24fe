import { createElement } from 'react';
import type { Preview } from '@storybook/react-vite';
import { MINIMAL_VIEWPORTS } from 'storybook/viewport';
import { ConfabRoot, type ConfabTheme } from '../packages/chat-ui/src/provider/ConfabRoot';
import '../packages/chat-ui/src/theme/theme.css';
import './preview.css';

const preview: Preview = {
  parameters: {
    layout: 'fullscreen',
    viewport: {
      options: {
        // The phone the end-to-end checks measure on (390×844); stories tagged 'narrow' use it, and
        // the Storybook checks (.storybook/stories.test.ts) run those stories at this size.
        phone: { name: 'Phone (390×844)', styles: { width: '390px', height: '844px' }, type: 'mobile' },
        ...MINIMAL_VIEWPORTS,
      },
    },
  },
  globalTypes: {
    confabTheme: {
      description: 'The chat-ui theme',
      toolbar: { title: 'Theme', icon: 'mirror', items: ['light', 'dark'], dynamicTitle: true },
    },
    direction: {
      description: 'Text direction',
      toolbar: { title: 'Direction', icon: 'transfer', items: ['ltr', 'rtl'], dynamicTitle: true },
    },
  },
  initialGlobals: { confabTheme: 'light', direction: 'ltr' },
  decorators: [
    // The theme is scoped under .confab-root: parts shown without a provider (Button, FormField…)
    // get one here. Providers inside (withConfab) render their own root with the same theme.
    // Right-to-left comes from the toolbar, or a story's `parameters: { direction: 'rtl' }`.
    (Story, context) => {
      const rtl = (context.parameters['direction'] ?? context.globals['direction']) === 'rtl';
      return createElement(
        ConfabRoot,
        {
          theme: (context.globals['confabTheme'] as ConfabTheme | undefined) ?? 'light',
          style: { minHeight: '100vh' },
          ...(rtl ? { dir: 'rtl', lang: 'ar' } : {}),
        },
        createElement(Story),
      );
    },
  ],
};

export default preview;
