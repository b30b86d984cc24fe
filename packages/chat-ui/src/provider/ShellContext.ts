import { createContext, useCallback, useContext, useRef, type RefObject } from 'react';
import { useConfabClient, useConfabStore } from './hooks';

/**
 * What AppShell tells the menu toggles inside its main area: the sidebar's element id (for
 * aria-controls) and where to return focus when the drawer closes with Escape.
 */
export interface ShellContextValue {
  sidebarId: string;
  /** The toggle that last opened the drawer; Escape returns focus to it. */
  lastToggle: RefObject<HTMLButtonElement | null>;
  /** Set by a toggle that opens the drawer, so the shell moves focus into it. */
  focusOnOpen: RefObject<boolean>;
}

export const ShellContext = createContext<ShellContextValue | null>(null);

/** The sidebar open flag (client store, docs/PRODUCT.md §3) and a toggle that works inside or outside AppShell. */
export function useSidebarToggle() {
  const client = useConfabClient();
  const shell = useContext(ShellContext);
  const open = useConfabStore((state) => state.sidebarOpen);
  const fallbackRef = useRef<HTMLButtonElement | null>(null);
  const toggle = useCallback(
    (button: HTMLButtonElement | null) => {
      if (shell) {
        shell.lastToggle.current = button;
        shell.focusOnOpen.current = !open;
      }
      client.store.setState({ sidebarOpen: !open });
    },
    [client, shell, open],
  );
  return { open, toggle, sidebarId: shell?.sidebarId, ref: shell?.lastToggle ?? fallbackRef };
}
