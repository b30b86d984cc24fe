import type { ReactElement, ReactNode } from 'react';
import { render, type RenderResult } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { vi, type Mock } from 'vitest';
import { ConfabClient } from '@confab/client';
import { ConfabProvider } from '../src/provider/ConfabProvider';
import type { ConfabComponents } from '../src/provider/ComponentsContext';
import type { NavigateFunction } from '../src/provider/types';
import { createFakeBackend, type FakeBackend } from '@confab/client/testing/fakeBackend';

export interface ConfabRenderResult extends RenderResult {
  client: ConfabClient;
  backend: FakeBackend;
  navigate: Mock<NavigateFunction>;
  user: UserEvent;
}

export interface ConfabRenderOptions {
  backend?: FakeBackend;
  components?: Partial<ConfabComponents>;
  /** The provider's `documentTitle` (screens may set the page title); default false. */
  documentTitle?: boolean;
  /** A socket for the realtime connection (test/fakeSocket.ts), which the test then connects. */
  WebSocket?: unknown;
}

/** A real ConfabClient over the fake backend, so screens run through the real client and SDK. */
export function createTestClient(backend: FakeBackend, WebSocket?: unknown): ConfabClient {
  // No socket in jsdom tests unless given one: realtime parts are driven through the store.
  return new ConfabClient({ baseUrl: 'http://confab.test', fetch: backend.fetch, realtime: { autoConnect: false, WebSocket: WebSocket as typeof globalThis.WebSocket | undefined } });
}

/**
 * Renders `ui` inside a ConfabProvider with a real client and a navigate spy. The user-event
 * instance advances vitest's fake timers when a test has turned them on.
 */
export function renderWithConfab(ui: ReactElement, options: ConfabRenderOptions = {}): ConfabRenderResult {
  const backend = options.backend ?? createFakeBackend();
  const client = createTestClient(backend, options.WebSocket);
  const navigate = vi.fn<NavigateFunction>();
  const user = userEvent.setup({
    // No pause between keystrokes: the screens do not debounce, and the suite runs much faster.
    delay: null,
    advanceTimers: (milliseconds) => {
      if (vi.isFakeTimers()) vi.advanceTimersByTime(milliseconds);
    },
  });
  // A wrapper (not an element around ui) so rerender() keeps the provider.
  const Wrapper = ({ children }: { children: ReactNode }) => (
    <ConfabProvider client={client} navigate={navigate} components={options.components} documentTitle={options.documentTitle}>
      {children}
    </ConfabProvider>
  );
  const result = render(ui, { wrapper: Wrapper });
  return { ...result, client, backend, navigate, user };
}
