import { useState } from 'react';
import type { ChatRecord } from '@confab/client';
import { useConfabStore } from '../../provider/hooks';

/**
 * The person's read position in the chat as it was when the page opened it. It stays as it was
 * for the whole visit, so the 'New messages' divider keeps its place while reading moves the real
 * position on. Taken from the chat list's record (kept live by the client), else from the open
 * chat's; null while neither says it yet, and for good once the chat has opened without one (a
 * server without read state).
 */
export function useReadPositionAtOpen(chatId: string, chat: ChatRecord | null, opened: boolean): number | null {
  const listed = useConfabStore((state) => state.chats.find((candidate) => candidate.id === chatId)?.last_read_seq);
  const known = listed ?? (chat?.id === chatId ? chat.last_read_seq : undefined);
  const [taken, setTaken] = useState<{ chatId: string; lastReadSeq: number | null } | null>(null);
  if (taken?.chatId === chatId) return taken.lastReadSeq;
  if (known === undefined && !opened) return null;
  // Taken during render, so the first render with the chat's messages already has it.
  const now = { chatId, lastReadSeq: known ?? null };
  setTaken(now);
  return now.lastReadSeq;
}
