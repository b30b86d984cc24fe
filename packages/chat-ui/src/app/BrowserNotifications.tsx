import { useEffect } from 'react';
import { useConfabClient, useConfabStore, useNavigate } from '../provider/hooks';

/**
 * Browser notifications while someone is signed in (docs/CONTRACTS.md, Notifications): the
 * client shows them when this device opted in (My Profile) and the tab is hidden; a click opens
 * the chat at the message. Renders nothing.
 */
export function BrowserNotifications() {
  const client = useConfabClient();
  const navigate = useNavigate();
  const userId = useConfabStore((state) => state.user?.id ?? null);
  useEffect(() => {
    if (userId === null || client.notifications === undefined) return undefined;
    return client.notifications.showInBrowser({
      onOpen: (chatId, messageId) => navigate(`/chat/${encodeURIComponent(chatId)}${messageId === undefined ? '' : `?message=${encodeURIComponent(messageId)}`}`),
    });
  }, [client, navigate, userId]);
  return null;
}
