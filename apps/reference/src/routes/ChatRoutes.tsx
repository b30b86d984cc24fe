import { useCallback } from 'react';
import { Outlet, useLocation, useNavigate, useParams } from 'react-router';
import { AppShell, ChatOptionsScreen, ChatPage, CreateChatScreen, InviteUserScreen } from '@confab/chat-ui';
import { firstMessageFrom, preselectedAgentFrom } from './navigationState';
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

/** /chat/new: navigation state may carry a preselectedAgent (spec §2), from the agent search. */
export function NewChatRoute() {
  const location = useLocation();
  return <CreateChatScreen preselectedAgent={preselectedAgentFrom(location.state)} />;
}

/** /chat/:id; a chat just started with an agent carries its first message in the navigation state. */
export function ChatRoute() {
  const { id = '' } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const { pathname, search } = location;
  // Sent once: the history entry forgets it, so Back, Forward and a reload do not send it again.
  const forget = useCallback(() => void navigate({ pathname, search }, { replace: true, state: null }), [navigate, pathname, search]);
  return <ChatPage chatId={id} initialMessage={firstMessageFrom(location.state)} onInitialMessageSent={forget} />;
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
