import { useEffect, useRef, type KeyboardEvent, type RefObject } from 'react';

/*
 * Keyboard and focus behaviour of a modal dialog (docs/STYLE.md, Accessible by construction): focus
 * moves in when it opens and back to where it was when it closes; Tab and Shift+Tab stay inside;
 * Escape closes.
 */

const focusableSelector = [
  'a[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  'audio[controls]',
  '[tabindex]:not([tabindex="-1"])',
].join(', ');

export interface ModalDialogOptions {
  onClose: () => void;
  /** Focused when the dialog opens; the dialog element itself (tabIndex -1) by default. */
  initialFocusRef?: RefObject<HTMLElement | null> | undefined;
}

/** Returns the onKeyDown handler to put on the dialog element. */
export function useModalDialog(dialogRef: RefObject<HTMLElement | null>, { onClose, initialFocusRef }: ModalDialogOptions) {
  const onCloseRef = useRef(onClose);
  useEffect(() => {
    onCloseRef.current = onClose;
  }, [onClose]);

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    (initialFocusRef?.current ?? dialogRef.current)?.focus();
    return () => {
      // Back to the control that opened the dialog, if it is still on the page.
      if (opener?.isConnected) opener.focus();
    };
    // Opening and closing are mount and unmount; the refs are stable.
  }, [dialogRef, initialFocusRef]);

  return (event: KeyboardEvent<HTMLElement>) => {
    if (event.key === 'Escape') {
      // A dialog inside another one closes alone.
      event.stopPropagation();
      event.preventDefault();
      onCloseRef.current();
      return;
    }
    if (event.key === 'Tab' && dialogRef.current !== null) {
      event.stopPropagation();
      keepTabInside(event, dialogRef.current);
    }
  };
}

function keepTabInside(event: KeyboardEvent<HTMLElement>, container: HTMLElement): void {
  const focusable = Array.from(container.querySelectorAll<HTMLElement>(focusableSelector)).filter(
    (element) => element.tabIndex >= 0 && element.closest('[hidden]') === null,
  );
  const first = focusable[0];
  const last = focusable[focusable.length - 1];
  if (first === undefined || last === undefined) {
    event.preventDefault();
    return;
  }
  const active = document.activeElement;
  if (event.shiftKey && (active === first || active === container)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (active === last || !container.contains(active))) {
    event.preventDefault();
    first.focus();
  }
}
