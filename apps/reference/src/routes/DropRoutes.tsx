import { Outlet, useParams } from 'react-router';
import { AppShell, ChatDropsScreen, DropScreen } from '@confab/chat-ui';
import { PrivateRoute } from './PrivateRoute';

/**
 * /drops/* (private): the signed-in shell stays mounted while the feed tabs and drops change
 * (the feed screen itself is the route's element: DropsFeedScreen with its tab).
 */
export function DropsLayout() {
  return (
    <PrivateRoute>
      <AppShell>
        <Outlet />
      </AppShell>
    </PrivateRoute>
  );
}

/** /drops/:slug: one drop; also where a new drop opens. */
export function DropRoute() {
  const { slug = '' } = useParams();
  return <DropScreen slug={slug} />;
}

/** /chat/:id/drops, inside the chat layout (the sidebar highlights the chat). */
export function ChatDropsRoute() {
  const { id = '' } = useParams();
  return <ChatDropsScreen chatId={id} />;
}
