import { useRef, type KeyboardEvent } from 'react';
import type { ClientMessage } from '../../internal/chatClient';
import { DeleteMessage } from './DeleteMessage';
import type { MessageAction } from './MessageActions';
import { MessageEditor } from './MessageEditor';

export interface MessageActionPanelProps {
  /** What was pressed: Edit or Delete. */
  action: Exclude<MessageAction, 'react'>;
  message: ClientMessage;
  /** Called once the edit or the question is over: saved, deleted, or given up (Cancel, Escape). */
  onDone: () => void;
}

/**
 * What a message's Edit or Delete opens: the editor in place of its body, or the question under
 * it; Escape gives either up. Afterwards the focus is back on the button that opened it (a deleted
 * message has left the list instead). Loaded on demand, as few visits open either.
 */
export function MessageActionPanel({ action, message, onDone }: MessageActionPanelProps) {
  const ref = useRef<HTMLDivElement>(null);
  const done = () => {
    // The bar stays in the message, hidden, while this is open.
    const opener = ref.current?.closest('.cf-message')?.querySelector(`.cf-message__actions [data-action="${action}"]`);
    onDone();
    // Once the bar is shown again (a hidden button takes no focus).
    setTimeout(() => (opener as HTMLElement | null | undefined)?.focus(), 0);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    // Escape while an IME is composing cancels the composition only.
    if (event.key !== 'Escape' || event.nativeEvent.isComposing) return;
    event.stopPropagation();
    done();
  };
  return (
    <div ref={ref} className="cf-message-panel" onKeyDown={onKeyDown}>
      {action === 'edit' ? <MessageEditor message={message} onDone={done} /> : <DeleteMessage message={message} onDone={done} />}
    </div>
  );
}
