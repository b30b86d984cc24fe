import type { ConfabClient } from '@confab/client';
import { AppRoutes } from './routeTable';
import { RootLayout } from './layouts/RootLayout';

export interface AppProps {
  client: ConfabClient;
}

/**
 * The reference app: docs/PRODUCT.md §2 routes mapped onto @confab/chat-ui screens. Navigation is
 * chat-ui's own (the History API); routing/engine.tsx matches the route table (routeTable.tsx)
 * against it.
 */
export function App({ client }: AppProps) {
  return (
    <RootLayout client={client}>
      <AppRoutes />
    </RootLayout>
  );
}
