import { useCallback, useState } from 'react';
import type { ClientMessage } from '../../internal/chatClient';
import type { RowKey, VirtualRow } from '../../internal/useVirtualRows';
import { keyOf, type Row } from './rows';

export interface OpenPanels {
  /** The rows to render: those in view, plus the messages with an open panel outside it, in order. */
  renderedRows: readonly VirtualRow[];
  /** For `Message`'s onPanelOpenChange (stable). */
  onPanelOpenChange: (message: ClientMessage, open: boolean) => void;
}

/**
 * Keeps the messages whose editor or delete question is open rendered while scrolled out of the
 * virtualised window, so a draft (and the focus in it) survives scrolling away and back; the
 * virtualiser's offsets still place them where they belong on the canvas.
 */
export function useOpenPanels(inView: readonly VirtualRow[], rows: readonly Row[], startOf: (index: number) => number): OpenPanels {
  const [open, setOpen] = useState<ReadonlySet<RowKey>>(() => new Set());
  const onPanelOpenChange = useCallback((message: ClientMessage, isOpen: boolean) => {
    // The same key as the message's row (rows.ts keyOf).
    const key = message.client_id || message.message_id;
    setOpen((current) => {
      if (current.has(key) === isOpen) return current;
      const next = new Set(current);
      if (isOpen) next.add(key);
      else next.delete(key);
      return next;
    });
  }, []);
  return { renderedRows: open.size === 0 ? inView : withOpen(inView, rows, open, startOf), onPanelOpenChange };
}

function withOpen(inView: readonly VirtualRow[], rows: readonly Row[], keys: ReadonlySet<RowKey>, startOf: (index: number) => number): readonly VirtualRow[] {
  const shown = new Set(inView.map((row) => row.index));
  const extra: VirtualRow[] = [];
  rows.forEach((row, index) => {
    if (shown.has(index) || row.kind !== 'message' || !keys.has(keyOf(row, index))) return;
    extra.push({ index, key: keyOf(row, index), start: startOf(index), size: startOf(index + 1) - startOf(index) });
  });
  return extra.length === 0 ? inView : [...inView, ...extra].sort((first, second) => first.index - second.index);
}
