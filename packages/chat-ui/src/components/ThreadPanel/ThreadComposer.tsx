import { useId, useState, type FormEvent, type KeyboardEvent } from 'react';

export interface ThreadComposerProps {
  /** Called with the trimmed text; the field empties. */
  onSend: (content: string) => void;
  disabled?: boolean | undefined;
}

/**
 * The thread's own input: its text goes to the thread as a reply to the original. Enter sends,
 * Shift+Enter starts a new line.
 */
export function ThreadComposer({ onSend, disabled = false }: ThreadComposerProps) {
  const [text, setText] = useState('');
  const id = useId();
  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    const content = text.trim();
    if (content === '' || disabled) return;
    onSend(content);
    setText('');
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) submit(event);
  };
  return (
    <form className="cf-thread__composer" onSubmit={submit}>
      <label htmlFor={id} className="cf-thread__composer-label">
        Reply in thread
      </label>
      <textarea id={id} className="cf-thread__composer-input" rows={2} value={text} disabled={disabled} onChange={(event) => setText(event.target.value)} onKeyDown={onKeyDown} />
      <button type="submit" className="cf-button cf-button--primary" disabled={disabled || text.trim() === ''}>
        Send reply
      </button>
    </form>
  );
}
