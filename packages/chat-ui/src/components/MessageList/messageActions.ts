import type { ClientMessage } from '../../internal/chatClient';

/** Who is looking: the signed-in person, and the chat they administer (the open one, if they do). */
export interface Viewer {
  userId: string | null;
  adminOfChat: string | null;
}

/**
 * What `viewer` may do with `message`, as the server allows it: the author edits their own
 * message, the author or an admin of the chat deletes it. Only a stored message (sent, with its
 * seq) can be changed, not one still pending, failed or streaming; an agent's message is never
 * edited here (agents edit theirs through the SDK). Anyone signed in reacts to a stored message.
 */
export function messageActions(message: ClientMessage, viewer: Viewer): { canEdit: boolean; canDelete: boolean; canReact: boolean } {
  const stored = message.status === 'sent' && message.seq !== null && !message.deleted_at;
  const own = viewer.userId !== null && message.author_id === viewer.userId;
  return {
    // A file message's text is the server's; a system line is nobody's to change (Message shows no actions on one).
    canEdit: stored && own && !message.is_agent && message.message_type !== 'file' && message.message_type !== 'system',
    canDelete: stored && message.message_type !== 'system' && (own || message.chat_id === viewer.adminOfChat),
    // Every participant reacts to any stored message, agents' included (not to system lines).
    canReact: stored && viewer.userId !== null && message.message_type !== 'system',
  };
}
