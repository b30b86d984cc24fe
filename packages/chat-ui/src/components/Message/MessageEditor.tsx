import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { toConfabError, validateMessage } from '@confab/client';
import { messagesOf, type ClientMessage } from '../../internal/chatClient';
import { useConfabClient } from '../../provider/hooks';
import { Alert } from '../Alert/Alert';
import { Button } from '../Button/Button';

export interface MessageEditorProps {
  /** The message to change; the editor starts with its text. */
  message: ClientMessage;
  /** Called once the edit is saved, or given up (Cancel; Escape is handled around it). */
  onDone: () => void;
}

/** Said when the server no longer knows the message as the person's own (deleted meanwhile). */
export const editGone = 'This message can no longer be edited.';

/** The most lines the field opens with; longer texts scroll. */
const maxRows = 10;

/**
 * A message's text, in place of its body, to change: focused, Enter saves (Shift+Enter starts a
 * new line), Save and Cancel. Saving goes through client.messages.edit with every control disabled
 * meanwhile; an empty text gets the client's own message without a request, an unchanged one
 * closes the editor, and a failure is announced here with the text kept.
 */
export function MessageEditor({ message, onDone }: MessageEditorProps) {
  const client = useConfabClient();
  const [text, setText] = useState(message.content);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const fieldRef = useRef<HTMLTextAreaElement>(null);
  const fieldId = useId();
  const hintId = `${fieldId}-hint`;
  const errorId = `${fieldId}-error`;

  // In the field with the caret at the end: when it opens, and again after a failed save.
  useEffect(() => {
    const field = fieldRef.current;
    if (saving || field === null) return;
    field.focus();
    field.setSelectionRange(field.value.length, field.value.length);
  }, [saving]);

  const save = async () => {
    if (saving) return;
    const problem = validateMessage(text);
    if (problem !== null) {
      setError(problem);
      return;
    }
    if (text.trim() === message.content.trim()) {
      onDone();
      return;
    }
    setSaving(true);
    setError(null);
    try {
      await messagesOf(client).edit(message.message_id, text);
      onDone();
    } catch (failure) {
      const refused = toConfabError(failure);
      setError(refused.status === 404 ? editGone : refused.message);
      setSaving(false);
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // Enter while an IME is composing confirms the composition; it must not save.
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    void save();
  };

  return (
    <form
      className="cf-message-editor"
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <label className="cf-message-editor__label" htmlFor={fieldId}>
        Edit message
      </label>
      <textarea
        ref={fieldRef}
        id={fieldId}
        className="cf-message-editor__field"
        rows={Math.min(maxRows, Math.max(2, text.split('\n').length))}
        value={text}
        disabled={saving}
        aria-invalid={error !== null}
        aria-describedby={error === null ? hintId : `${errorId} ${hintId}`}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
      />
      <p id={hintId} className="cf-message-editor__hint">
        Enter to save, Shift+Enter for a new line, Escape to cancel
      </p>
      {error !== null ? <Alert id={errorId}>{error}</Alert> : null}
      <div className="cf-message-editor__actions">
        <Button variant="secondary" disabled={saving} onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={saving}>
          {saving ? 'Saving...' : 'Save'}
        </Button>
      </div>
    </form>
  );
}
