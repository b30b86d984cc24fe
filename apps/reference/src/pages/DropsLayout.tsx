import { Outlet } from '../routing/engine';
import { AppShell } from '@confab/chat-ui';
import { PrivateRoute } from '../layouts/PrivateRoute';

/**
 * /drops/* (private): the signed-in shell stays mounted while the feed tabs and drops change
 * (the feed screen itself is the route's element: DropsFeedScreen with its tab).
 */
export default function Page() {
  return (
    <PrivateRoute>
      <AppShell>
        <Outlet />
      </AppShell>
    </PrivateRoute>
  );
}
