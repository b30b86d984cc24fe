import { useState } from 'react';
// The react-dom flavour: it can honour `flushSync` navigations (see RootLayout).
import { RouterProvider } from 'react-router/dom';
import type { ConfabClient } from '@confab/client';
import { createAppRouter } from './router';

export interface AppProps {
  client: ConfabClient;
}

/** The reference app: spec §2 routes mapped onto @confab/chat-ui screens. */
export function App({ client }: AppProps) {
  // The router is created once per client; recreating it would reset navigation state.
  const [router] = useState(() => createAppRouter(client));
  return <RouterProvider router={router} />;
}
