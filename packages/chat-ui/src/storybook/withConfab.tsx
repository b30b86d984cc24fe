import { useState, type ReactNode } from 'react';
import type { Decorator } from '@storybook/react-vite';
import { action } from 'storybook/actions';
import { ConfabProvider } from '../provider/ConfabProvider';
import type { ConfabComponents } from '../provider/ComponentsContext';
import type { ConfabTheme } from '../provider/ConfabRoot';
import { createStoryClient, type StoryClientOptions } from './storyClient';

export interface WithConfabOptions extends StoryClientOptions {
  /** The provider's theme: 'light' (default), 'dark' or 'auto'. */
  theme?: ConfabTheme | undefined;
  /** Overridable parts to replace (the components context). */
  components?: Partial<ConfabComponents> | undefined;
  /**
   * The provider's root fills the story's canvas (the viewport's height), as ConfabApp's root
   * fills its container: for screens that fill theirs, such as AppShell.
   */
  fill?: boolean | undefined;
}

/**
 * A fresh ConfabProvider per story, with navigate logged to the Actions panel. The theme is the
 * option's, else the toolbar's (the `confabTheme` global of .storybook/preview.ts).
 */
export function withConfab({ theme: fixedTheme, components, fill = false, ...options }: WithConfabOptions = {}): Decorator {
  function ConfabStoryProvider({ children, theme }: { children: ReactNode; theme: ConfabTheme }) {
    // useState, not a module constant: every story (and every remount) starts from clean state.
    const [{ client }] = useState(() => createStoryClient(options));
    return (
      <ConfabProvider client={client} navigate={action('navigate')} theme={theme} components={components} className={fill ? 'cf-story-fill' : undefined}>
        {children}
      </ConfabProvider>
    );
  }
  return (Story, context) => (
    <ConfabStoryProvider theme={fixedTheme ?? (context.globals['confabTheme'] as ConfabTheme | undefined) ?? 'light'}>
      <Story />
    </ConfabStoryProvider>
  );
}
