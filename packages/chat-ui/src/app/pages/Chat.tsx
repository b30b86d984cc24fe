import { useCallback } from 'react';
import { useLocation, useParams, useSearchParams } from '../router';
import { useNavigate } from '../../provider/hooks';
import { ChatPage } from '../../screens/ChatPage/ChatPage';
import { firstMessageFrom } from '../layouts/navigationState';

/**
 * /chat/:id; a chat just started with an agent carries its first message in the navigation state,
 * and a notification's link names the message to open at (`?message=`).
 */
export default function Page() {
  const { id = '' } = useParams();
  const location = useLocation();
  const focusMessageId = useSearchParams().get('message') ?? undefined;
  const navigate = useNavigate();
  const { pathname, search } = location;
  // Sent once: the history entry forgets it, so Back, Forward and a reload do not send it again.
  const forget = useCallback(() => navigate(`${pathname}${search}`, { replace: true, state: null }), [navigate, pathname, search]);
  return <ChatPage chatId={id} initialMessage={firstMessageFrom(location.state)} onInitialMessageSent={forget} focusMessageId={focusMessageId} />;
}
