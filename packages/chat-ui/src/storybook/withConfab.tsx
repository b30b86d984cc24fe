import { useState, type ReactNode } from 'react';
import type { Decorator } from '@storybook/react-vite';
import { action } from 'storybook/actions';
import { ConfabProvider } from '../provider/ConfabProvider';
import { createStoryClient, type StoryClientOptions } from './storyClient';

/** A fresh ConfabProvider per story, with navigate logged to the Actions panel. */
export function withConfab(options: StoryClientOptions = {}): Decorator {
  function ConfabStoryProvider({ children }: { children: ReactNode }) {
    // useState, not a module constant: every story (and every remount) starts from clean state.
    const [{ client }] = useState(() => createStoryClient(options));
    return (
      <ConfabProvider client={client} navigate={action('navigate')}>
        {children}
      </ConfabProvider>
    );
  }
  return (Story) => (
    <ConfabStoryProvider>
      <Story />
    </ConfabStoryProvider>
  );
}
