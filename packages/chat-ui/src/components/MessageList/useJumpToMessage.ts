import { useCallback, useEffect, useRef, useState } from 'react';
import type { Row } from './rows';

/** How long the original a quote led to stays marked, in milliseconds. */
const highlightMs = 2_000;
/** Room left above the original when the list scrolls to it. */
const marginPx = 16;

/**
 * A reply's quote leads to its original (docs/CONTRACTS.md, Replies): the list scrolls to it and
 * marks it for a moment. An original that is not loaded yet is asked for (`reveal`, which loads
 * older pages) and gone to once its row is there.
 */
export function useJumpToMessage(options: {
  rows: readonly Row[];
  reveal?: ((messageId: string) => Promise<boolean>) | undefined;
  scrollToRow: (index: number, marginPx: number) => void;
  beforeJump: () => void;
}): { highlightedId: string | null; jumpTo: (messageId: string) => void } {
  const { rows, reveal, scrollToRow, beforeJump } = options;
  const [highlightedId, setHighlightedId] = useState<string | null>(null);
  const [wanted, setWanted] = useState<string | null>(null);
  const latest = useRef({ rows, scrollToRow, beforeJump });
  latest.current = { rows, scrollToRow, beforeJump };

  const go = useCallback((messageId: string): boolean => {
    const index = latest.current.rows.findIndex((row) => row.kind === 'message' && row.message.message_id === messageId);
    if (index < 0) return false;
    latest.current.beforeJump();
    latest.current.scrollToRow(index, marginPx);
    setHighlightedId(messageId);
    return true;
  }, []);

  const jumpTo = useCallback(
    (messageId: string) => {
      if (go(messageId)) return;
      setWanted(messageId);
      void reveal?.(messageId).then((found) => {
        if (!found) setWanted(null);
      });
    },
    [go, reveal],
  );

  // Once the revealed original's row is there.
  useEffect(() => {
    if (wanted !== null && go(wanted)) setWanted(null);
  }, [rows, wanted, go]);

  useEffect(() => {
    if (highlightedId === null) return undefined;
    const timer = setTimeout(() => setHighlightedId(null), highlightMs);
    return () => clearTimeout(timer);
  }, [highlightedId]);

  return { highlightedId, jumpTo };
}
