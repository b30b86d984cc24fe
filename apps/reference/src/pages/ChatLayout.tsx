import { Outlet, useParams } from '../routing/engine';
import { AppShell } from '@confab/chat-ui';
import { PrivateRoute } from '../layouts/PrivateRoute';

/** /chat/*: the signed-in shell stays mounted while the routed main area changes. */
export default function Page() {
  // The child route's :id (chat page, options …) is the chat the sidebar highlights.
  const { id } = useParams();
  return (
    <PrivateRoute>
      <AppShell activeChatId={id ?? null}>
        <Outlet />
      </AppShell>
    </PrivateRoute>
  );
}
