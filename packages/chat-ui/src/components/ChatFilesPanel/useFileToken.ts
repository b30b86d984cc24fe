import { useCallback, useEffect, useState } from 'react';
import { useConfabClient } from '../../provider/hooks';

/**
 * How often the panel asks client.files.fileToken() again. The client caches a token until 30 s
 * before its 180 s expiry, so this costs a request only when a new token is due (about every
 * 2.5 minutes), and no link on screen carries a token older than about 170 s.
 */
export const FILE_TOKEN_POLL_MS = 20_000;

export interface FileToken {
  /** The current file token, null until the first one arrives or after a failure. */
  token: string | null;
  failed: boolean;
  /** Asks for a token now (e.g. when a download is clicked without one); rejects on failure. */
  request: () => Promise<string>;
}

/** A file token kept fresh while the component is mounted, so file links are plain hrefs. */
export function useFileToken(): FileToken {
  const client = useConfabClient();
  const [token, setToken] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);

  const request = useCallback(async () => {
    try {
      const value = await client.files.fileToken();
      setToken(value);
      setFailed(false);
      return value;
    } catch (error) {
      setToken(null);
      setFailed(true);
      throw error;
    }
  }, [client]);

  useEffect(() => {
    // Failures are kept in `failed`; the next poll tries again.
    const refresh = () => void request().catch(() => undefined);
    refresh();
    const timer = setInterval(refresh, FILE_TOKEN_POLL_MS);
    return () => clearInterval(timer);
  }, [request]);

  return { token, failed, request };
}
