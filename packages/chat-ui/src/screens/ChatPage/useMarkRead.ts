import { useCallback, useEffect, useRef } from 'react';
import { chatsOf } from '../../internal/chatClient';
import type { ConfabUiClient } from '../../provider/clientInterface';
import { useConfabClient } from '../../provider/hooks';

/** At most one markRead call per this many milliseconds while messages scroll by. */
export const markReadThrottleMs = 500;

/** One chat's reading: the highest seq on screen now, the highest sent, and the call waiting. */
interface Progress {
  chatId: string;
  onScreen: number;
  sent: number;
  timer: ReturnType<typeof setTimeout> | undefined;
}

const visible = () => document.visibilityState === 'visible';

function send(client: ConfabUiClient, progress: Progress): void {
  if (!visible() || progress.onScreen <= progress.sent) return;
  progress.sent = progress.onScreen;
  // Failures are not shown: the list keeps its count, and the next message seen sends again.
  chatsOf(client).markRead(progress.chatId, progress.sent).catch(() => {});
}

/**
 * Marks the chat read up to what the person has seen. Give the returned function the highest seq
 * on screen whenever it changes (MessageList's onMessagesSeen); it calls client.chats.markRead
 * while the document is visible, at most once per 500 ms. A chat open in a hidden tab marks
 * nothing until the tab is shown again; what is on screen then counts. Leaving the chat sends
 * what is still waiting.
 */
export function useMarkRead(chatId: string): (seq: number) => void {
  const client = useConfabClient();
  const latest = useRef({ client, chatId });
  latest.current = { client, chatId };
  const progress = useRef<Progress>({ chatId, onScreen: 0, sent: 0, timer: undefined });

  // Each call waits 500 ms after the first sighting it carries, so the view has settled (rows
  // measured, a jump finished): what is on screen then is sent.
  const schedule = useCallback((reading: Progress) => {
    if (reading.timer !== undefined || !visible() || reading.onScreen <= reading.sent) return;
    reading.timer = setTimeout(() => {
      reading.timer = undefined;
      send(latest.current.client, reading);
    }, markReadThrottleMs);
  }, []);

  useEffect(() => {
    const onVisibility = () => schedule(progress.current);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      document.removeEventListener('visibilitychange', onVisibility);
      const reading = progress.current;
      if (reading.chatId !== chatId) return;
      clearTimeout(reading.timer);
      reading.timer = undefined;
      send(client, reading);
    };
  }, [client, chatId, schedule]);

  return useCallback(
    (seq: number) => {
      const id = latest.current.chatId;
      // Another chat (the page stays mounted from chat to chat) starts afresh.
      if (progress.current.chatId !== id) progress.current = { chatId: id, onScreen: 0, sent: 0, timer: undefined };
      progress.current.onScreen = seq;
      schedule(progress.current);
    },
    [schedule],
  );
}
