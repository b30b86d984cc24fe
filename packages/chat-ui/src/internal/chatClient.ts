import { renderMessageContent, type RenderedContent } from '@confab/client';
import type { ConfabUiClient } from '../provider/clientInterface';

/*
 * The one seam chat-ui reads the chat surfaces of @confab/client through (docs/CONTRACTS.md,
 * Chats and realtime): client.chats, client.messages, client.realtime and renderMessageContent.
 */

export type { ClientMessage, ConnectionState, MessageStatus, RenderedContent } from '@confab/client';

export const chatsOf = (client: ConfabUiClient) => client.chats;
export const messagesOf = (client: ConfabUiClient) => client.messages;
export const realtimeOf = (client: ConfabUiClient) => client.realtime;

/**
 * A message body as the client's renderer gives it: search results, ALREADY SANITISED html, or
 * text (which React escapes). Never pass anything but `kind: 'html'` output to innerHTML.
 */
export function renderContent(content: string): RenderedContent {
  return renderMessageContent(content);
}
