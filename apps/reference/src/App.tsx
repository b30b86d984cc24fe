import type { ConfabClient } from '@confab/client';
import { AppRoutes } from './router';
import { RootLayout } from './routes/RootLayout';

export interface AppProps {
  client: ConfabClient;
}

/**
 * The reference app: docs/PRODUCT.md §2 routes mapped onto @confab/chat-ui screens. Navigation is
 * chat-ui's own (the History API); routing/router.tsx matches the route table against it.
 */
export function App({ client }: AppProps) {
  return (
    <RootLayout client={client}>
      <AppRoutes />
    </RootLayout>
  );
}
