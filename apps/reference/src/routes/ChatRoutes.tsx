import { Outlet, useParams } from 'react-router';
import { AppShell, ChatOptionsScreen, ChatPage, InviteUserScreen } from '@confab/chat-ui';
import { PrivateRoute } from './PrivateRoute';

/** /chat/*: the signed-in shell stays mounted while the routed main area changes. */
export function ChatLayout() {
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

/** /chat/:id */
export function ChatRoute() {
  const { id = '' } = useParams();
  return <ChatPage chatId={id} />;
}

/** /chat/:id/options */
export function ChatOptionsRoute() {
  const { id = '' } = useParams();
  return <ChatOptionsScreen chatId={id} />;
}

/** /chat/:id/invite */
export function InviteUserRoute() {
  const { id = '' } = useParams();
  return <InviteUserScreen chatId={id} />;
}
