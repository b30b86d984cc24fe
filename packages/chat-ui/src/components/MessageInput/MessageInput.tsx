import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { messages as texts, type ChatFile } from '@confab/client';
import { Button } from '../Button/Button';
import { AgentAutocomplete } from './AgentAutocomplete';
import { UploadZone } from './UploadZone';

export interface MessageInputProps {
  /** The chat messages and uploads go to. */
  chatId: string;
  /** Called with the trimmed, non-empty text; the field is then cleared. */
  onSend: (content: string) => void;
  /** Disables typing and sending (e.g. before the chat has loaded). */
  disabled?: boolean;
  placeholder?: string;
  /** Called for each file the upload zone stored. */
  onFileUploaded?: (file: ChatFile) => void;
}

/** Spec §4: the autocomplete triggers on @ plus word characters right before the cursor. */
export function mentionQueryAt(text: string, cursor: number): string | null {
  const match = /(?:^|\s)@(\w*)$/.exec(text.slice(0, cursor));
  return match ? (match[1] ?? '') : null;
}

/**
 * Spec §2 Message input: Enter sends, Shift+Enter starts a new line; Send; the upload button
 * toggling the upload zone; the @ agent autocomplete (its results arrive with the agents issue).
 */
export function MessageInput({
  chatId,
  onSend,
  disabled = false,
  placeholder = 'Type a message… (@ to mention an agent)',
  onFileUploaded,
}: MessageInputProps) {
  const fieldId = useId();
  const zoneId = useId();
  const [text, setText] = useState('');
  const [uploadOpen, setUploadOpen] = useState(false);
  // Once opened, the zone stays mounted (hidden when toggled off) so uploads keep their progress.
  const [uploadMounted, setUploadMounted] = useState(false);
  const [mention, setMention] = useState<string | null>(null);
  const fieldRef = useRef<HTMLTextAreaElement>(null);
  const canSend = !disabled && text.trim() !== '';

  const updateMention = (value: string, cursor: number | null) => setMention(mentionQueryAt(value, cursor ?? value.length));

  const send = () => {
    if (!canSend) return;
    onSend(text.trim());
    setText('');
    setMention(null);
    fieldRef.current?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Escape' && mention !== null) {
      event.preventDefault();
      setMention(null);
      return;
    }
    // Enter while an IME is composing confirms the composition; it must not send.
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    send();
  };

  return (
    <div className="cf-composer">
      {uploadMounted ? <UploadZone key={chatId} id={zoneId} chatId={chatId} hidden={!uploadOpen} onUploaded={onFileUploaded} /> : null}
      {mention !== null ? <AgentAutocomplete query={mention} emptyText={texts.noAgentsFound(mention)} /> : null}
      <form
        className="cf-composer__form"
        onSubmit={(event) => {
          event.preventDefault();
          send();
        }}
      >
        <button
          type="button"
          className="cf-composer__upload"
          aria-label="Upload files"
          aria-expanded={uploadOpen}
          aria-controls={uploadOpen ? zoneId : undefined}
          onClick={() => {
            setUploadMounted(true);
            setUploadOpen((open) => !open);
          }}
        >
          <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
            <path d="M12 16V4m0 0l-5 5m5-5l5 5M5 20h14" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
        </button>
        <label htmlFor={fieldId} className="cf-visually-hidden">
          Message
        </label>
        <textarea
          ref={fieldRef}
          id={fieldId}
          className="cf-composer__field"
          rows={1}
          value={text}
          disabled={disabled}
          placeholder={placeholder}
          onChange={(event) => {
            setText(event.target.value);
            updateMention(event.target.value, event.target.selectionStart);
          }}
          onSelect={(event) => updateMention(event.currentTarget.value, event.currentTarget.selectionStart)}
          onKeyDown={onKeyDown}
        />
        <Button type="submit" disabled={!canSend}>
          Send
        </Button>
      </form>
    </div>
  );
}
