import { BrowserRouter } from 'react-router';
import type { ConfabClient } from '@confab/client';
import { AppRoutes } from './router';
import { RootLayout } from './routes/RootLayout';

export interface AppProps {
  client: ConfabClient;
}

/**
 * The reference app: spec §2 routes mapped onto @confab/chat-ui screens. The declarative router
 * keeps react-router's data-router code (loaders, actions, fetchers: ~16 kB gzip) out of every
 * route; transitions are off so a navigation renders at once (RootLayout flushes it).
 */
export function App({ client }: AppProps) {
  return (
    <BrowserRouter useTransitions={false}>
      <RootLayout client={client}>
        <AppRoutes />
      </RootLayout>
    </BrowserRouter>
  );
}
