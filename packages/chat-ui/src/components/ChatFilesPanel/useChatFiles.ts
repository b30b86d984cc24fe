import { useCallback, useEffect, useState } from 'react';
import { toConfabError, type ChatFile } from '@confab/client';
import { useConfabClient } from '../../provider/hooks';

/** docs/PRODUCT.md §4 Files panel: loading, error (with Retry), or the list (which may be empty). */
export type ChatFilesState = { status: 'loading' } | { status: 'error' } | { status: 'ready'; files: ChatFile[] };

export interface ChatFiles {
  state: ChatFilesState;
  /** Loads the list again, keeping the current one on screen meanwhile (after a delete or upload). */
  reload: () => void;
  /** Loads again from the loading state (the error state's Retry). */
  retry: () => void;
}

/**
 * The chat's files through client.files.list, loaded again whenever `refreshKey` changes or the
 * server says a file of the chat was added or deleted (chat_files_changed).
 */
export function useChatFiles(chatId: string, refreshKey: number): ChatFiles {
  const client = useConfabClient();
  const [state, setState] = useState<ChatFilesState>({ status: 'loading' });
  const [reloads, setReloads] = useState(0);

  useEffect(() => {
    let active = true;
    client.files.list(chatId).then(
      (files) => {
        if (active) setState({ status: 'ready', files });
      },
      (error: unknown) => {
        if (active && !toConfabError(error).isAbort) setState({ status: 'error' });
      },
    );
    return () => {
      active = false;
    };
  }, [client, chatId, refreshKey, reloads]);

  const reload = useCallback(() => setReloads((count) => count + 1), []);

  // Someone else uploaded or deleted a file of this chat: show the new list (the current one stays meanwhile).
  useEffect(
    () =>
      client.realtime.on('chat_files_changed', (frame) => {
        if (frame.chat_id === chatId) reload();
      }),
    [client, chatId, reload],
  );
  const retry = useCallback(() => {
    setState({ status: 'loading' });
    setReloads((count) => count + 1);
  }, []);
  return { state, reload, retry };
}
