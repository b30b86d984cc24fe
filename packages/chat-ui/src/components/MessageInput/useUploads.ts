import { useCallback, useEffect, useRef, useState } from 'react';
import { messages, toConfabError, validateUpload, type ChatFile } from '@confab/client';
import { useConfabClient } from '../../provider/hooks';

export type UploadStatus = 'uploading' | 'done' | 'failed';

/** One picked or dropped file on its way to the chat. */
export interface UploadItem {
  key: string;
  name: string;
  status: UploadStatus;
  /** Whole percent of the file sent, 0–100. */
  progress: number;
  /** The exact text to show when status is 'failed'. */
  error: string | null;
  /** A failure another try may cure (network, server trouble, rate limit), not a refused file. */
  retryable: boolean;
  /** The stored record once uploaded. */
  file: ChatFile | null;
}

export interface Uploads {
  items: UploadItem[];
  /** Uploads every file at once; each one succeeds or fails on its own. */
  start: (files: File[]) => void;
  /** Removes a failed item from the list. */
  dismiss: (key: string) => void;
  /** Sends a retryable failed file again, as the same item. */
  retry: (key: string) => void;
}

/** Network failures (status 0), server trouble and rate limits may pass on another try. */
function isRetryable(status: number): boolean {
  return status === 0 || status === 429 || status >= 500;
}

/**
 * The uploads of one chat through client.files.upload. A file that fails the client-side check
 * (extension, 100 MB) shows that exact text and is never sent; a refused or broken upload shows
 * 'Failed to upload {name}: {reason}'. No file stops the others.
 */
export function useUploads(chatId: string, onUploaded?: (file: ChatFile) => void): Uploads {
  const client = useConfabClient();
  const [items, setItems] = useState<UploadItem[]>([]);
  const counter = useRef(0);
  const onUploadedRef = useRef(onUploaded);
  useEffect(() => {
    onUploadedRef.current = onUploaded;
  }, [onUploaded]);

  const update = useCallback((key: string, patch: Partial<UploadItem>) => {
    setItems((current) => current.map((item) => (item.key === key ? { ...item, ...patch } : item)));
  }, []);

  // The picked files, kept while their item is listed so a failed one can be sent again.
  const sources = useRef(new Map<string, File>());

  const send = useCallback(
    (key: string, file: File) => {
      client.files
        .upload(chatId, file, { onProgress: (progress) => update(key, { progress }) })
        .then((record) => {
          sources.current.delete(key);
          update(key, { status: 'done', progress: 100, file: record });
          onUploadedRef.current?.(record);
        })
        .catch((error: unknown) => {
          const failure = toConfabError(error);
          update(key, { status: 'failed', error: messages.uploadFailed(file.name, failure.message), retryable: isRetryable(failure.status) });
        });
    },
    [client, chatId, update],
  );

  const start = useCallback(
    (files: File[]) => {
      for (const file of files) {
        counter.current += 1;
        const key = `upload-${counter.current}`;
        const problem = validateUpload(file);
        const item: UploadItem = { key, name: file.name, status: problem === null ? 'uploading' : 'failed', progress: 0, error: problem, retryable: false, file: null };
        setItems((current) => [...current, item]);
        if (problem !== null) continue;
        sources.current.set(key, file);
        send(key, file);
      }
    },
    [send],
  );

  const retry = useCallback(
    (key: string) => {
      const file = sources.current.get(key);
      if (file === undefined) return;
      update(key, { status: 'uploading', progress: 0, error: null, retryable: false });
      send(key, file);
    },
    [send, update],
  );

  const dismiss = useCallback((key: string) => {
    sources.current.delete(key);
    setItems((current) => current.filter((item) => item.key !== key));
  }, []);

  return { items, start, dismiss, retry };
}
