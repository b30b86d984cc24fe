import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { AgentSearchHit, ChatFile } from '@confab/client';
import { mentionBeforeCursor } from '@confab/client/rules';
import { LazyBoundary, LazyUploadZone } from '../../internal/lazyParts';
import { useAgentSearch } from '../../internal/useAgentSearch';
import { useComponents } from '../../provider/ComponentsContext';
import { Button } from '../Button/Button';
import { AgentAutocomplete } from './AgentAutocomplete';

export interface MessageInputProps {
  /** The chat messages and uploads go to. */
  chatId: string;
  /** Called with the trimmed, non-empty text; the field is then cleared. */
  onSend: (content: string) => void;
  /** Disables typing and sending (e.g. before the chat has loaded). */
  disabled?: boolean | undefined;
  placeholder?: string | undefined;
  /** The placeholder where `placeholder` would not fit on one line (a phone); default 'Type a message…'. */
  shortPlaceholder?: string | undefined;
  /** Called for each file the upload zone stored. */
  onFileUploaded?: ((file: ChatFile) => void) | undefined;
  /** Text the field starts with (e.g. a mention to finish). */
  initialText?: string | undefined;
  /**
   * Called on every change that leaves text in the field (client.presence.typing throttles what
   * goes on the wire; docs/CONTRACTS.md, Typing and presence).
   */
  onTyping?: (() => void) | undefined;
}

/**
 * docs/PRODUCT.md §4: the autocomplete triggers on @ plus word characters right before the cursor
 * (the mention grammar of `@confab/client/rules`), and on a bare @ (''): the word typed so far, else
 * null.
 */
export function mentionQueryAt(text: string, cursor: number): string | null {
  return mentionBeforeCursor(text, cursor)?.query ?? null;
}

let measuringContext: CanvasRenderingContext2D | null | undefined;

/**
 * Whether `text` fits on one line inside the field, in the field's font. Without layout (jsdom, a
 * hidden field) or a canvas it is taken to fit.
 */
function textFits(field: HTMLTextAreaElement, text: string): boolean {
  if (field.clientWidth === 0) return true;
  measuringContext ??= field.ownerDocument.createElement('canvas').getContext('2d');
  if (measuringContext === null) return true;
  const style = getComputedStyle(field);
  measuringContext.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  const room = field.clientWidth - (Number.parseFloat(style.paddingLeft) || 0) - (Number.parseFloat(style.paddingRight) || 0);
  return measuringContext.measureText(text).width <= room;
}

/** The mention being typed: its word, where its @ is, and the caret after it. */
interface TypedMention {
  query: string;
  start: number;
  end: number;
}

/**
 * docs/PRODUCT.md §2 Message input: Enter sends, Shift+Enter starts a new line; Send; the upload
 * button toggling the upload zone; and the @ agent autocomplete. The field is one line when empty
 * and grows with its text up to the theme's limit (8 lines, at most 40% of the viewport), then
 * scrolls. The field is an ARIA combobox: typing @ lists the agents this chat permits, and each
 * letter after it narrows the search (debounced 300 ms; asked again when the chat's agent settings
 * change); ↑ ↓ move through them, Enter or Tab (or a click) inserts `@username `, Escape
 * closes the list.
 */
export function MessageInput({
  chatId,
  onSend,
  disabled = false,
  placeholder = 'Type a message… (@ to mention an agent)',
  shortPlaceholder = 'Type a message…',
  onFileUploaded,
  initialText = '',
  onTyping,
}: MessageInputProps) {
  const { Spinner } = useComponents();
  const fieldId = useId();
  const zoneId = useId();
  const listboxId = useId();
  const [text, setText] = useState(initialText);
  const [uploadOpen, setUploadOpen] = useState(false);
  // Once opened, the zone stays mounted (hidden when toggled off) so uploads keep their progress.
  const [uploadMounted, setUploadMounted] = useState(false);
  const [mention, setMention] = useState<TypedMention | null>(null);
  const [placeholderFits, setPlaceholderFits] = useState(true);
  const [activeIndex, setActiveIndex] = useState(0);
  const fieldRef = useRef<HTMLTextAreaElement>(null);
  // Where the caret goes after a pick, applied once React has written the new value.
  const caretAfterPick = useRef<number | null>(null);
  const search = useAgentSearch(mention?.query ?? null, { chatId });
  const options = search.status === 'results' ? search.agents : [];
  const expanded = mention !== null && options.length > 0;
  const canSend = !disabled && text.trim() !== '';
  const optionId = (index: number) => `${listboxId}-option-${index}`;

  useEffect(() => setActiveIndex(0), [search]);

  // Fit the field to its text: measured at its natural height, then capped by the CSS max-height.
  const fitField = useCallback(() => {
    const field = fieldRef.current;
    if (field === null) return;
    field.style.height = 'auto';
    const contentHeight = field.scrollHeight;
    // Layout-less environments (jsdom) measure nothing: leave the height to the stylesheet.
    if (contentHeight === 0) {
      field.style.removeProperty('height');
      return;
    }
    const style = getComputedStyle(field);
    const borders = (Number.parseFloat(style.borderTopWidth) || 0) + (Number.parseFloat(style.borderBottomWidth) || 0);
    field.style.height = `${contentHeight + borders}px`;
  }, []);
  useLayoutEffect(fitField, [text, fitField]);
  // The full placeholder where it fits on one line, else the short one (a placeholder never wraps).
  const fitPlaceholder = useCallback(() => {
    const field = fieldRef.current;
    if (field !== null) setPlaceholderFits(textFits(field, placeholder));
  }, [placeholder]);
  useLayoutEffect(fitPlaceholder, [fitPlaceholder]);
  // A change of width (a rotated phone, the sidebar opening) rewraps the text: fit again.
  useEffect(() => {
    const field = fieldRef.current;
    if (field === null || typeof ResizeObserver === 'undefined') return;
    let width = field.clientWidth;
    const observer = new ResizeObserver(() => {
      if (field.clientWidth === width) return;
      width = field.clientWidth;
      fitField();
      fitPlaceholder();
    });
    observer.observe(field);
    return () => observer.disconnect();
  }, [fitField, fitPlaceholder]);
  useLayoutEffect(() => {
    const caret = caretAfterPick.current;
    if (caret === null || fieldRef.current === null) return;
    caretAfterPick.current = null;
    fieldRef.current.focus();
    fieldRef.current.setSelectionRange(caret, caret);
  }, [text]);

  const updateMention = (value: string, cursor: number | null) => {
    const end = cursor ?? value.length;
    const found = mentionBeforeCursor(value, end);
    setMention((current) => {
      if (found === null) return null;
      // The same mention (e.g. a selection event without a change) keeps its state.
      if (current !== null && current.query === found.query && current.start === found.start && current.end === end) return current;
      return { query: found.query, start: found.start, end };
    });
  };

  const pick = (agent: AgentSearchHit) => {
    if (mention === null) return;
    const before = text.slice(0, mention.start);
    // The rest of a word the caret was inside belongs to the mention being replaced.
    const after = text.slice(mention.end).replace(/^\w+/, '').replace(/^ /, '');
    const inserted = `@${agent.username} `;
    caretAfterPick.current = before.length + inserted.length;
    setText(before + inserted + after);
    setMention(null);
  };

  const send = () => {
    if (!canSend) return;
    onSend(text.trim());
    setText('');
    setMention(null);
    fieldRef.current?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (expanded && !event.nativeEvent.isComposing) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setActiveIndex((index) => (index + step + options.length) % options.length);
        return;
      }
      if ((event.key === 'Enter' && !event.shiftKey) || (event.key === 'Tab' && !event.shiftKey)) {
        const agent = options[activeIndex] ?? options[0];
        if (agent !== undefined) {
          event.preventDefault();
          pick(agent);
          return;
        }
      }
    }
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
      {uploadMounted ? (
        // The zone's code loads on demand (pointing at or focusing the upload button starts it).
        <LazyBoundary
          fallback={
            <div id={zoneId} hidden={!uploadOpen} className="cf-upload-zone" role="status">
              <Spinner size={24} />
              <span className="cf-visually-hidden">Loading uploads...</span>
            </div>
          }
          failed={(retry) => (
            <p id={zoneId} hidden={!uploadOpen} className="cf-message__status cf-message__status--failed" role="alert">
              Uploads could not be loaded.{' '}
              <button type="button" className="cf-message__retry" onClick={retry}>
                Retry
              </button>
            </p>
          )}
        >
          <LazyUploadZone.Component key={chatId} id={zoneId} chatId={chatId} hidden={!uploadOpen} onUploaded={onFileUploaded} />
        </LazyBoundary>
      ) : null}
      {mention !== null ? (
        <AgentAutocomplete
          state={search}
          listboxId={listboxId}
          optionId={optionId}
          activeIndex={activeIndex}
          onPick={pick}
          onActivate={setActiveIndex}
        />
      ) : null}
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
          onPointerEnter={() => void LazyUploadZone.preload()}
          onFocus={() => void LazyUploadZone.preload()}
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
          role="combobox"
          aria-autocomplete="list"
          aria-haspopup="listbox"
          aria-expanded={expanded}
          aria-controls={expanded ? listboxId : undefined}
          aria-activedescendant={expanded ? optionId(activeIndex) : undefined}
          value={text}
          disabled={disabled}
          placeholder={placeholderFits ? placeholder : shortPlaceholder}
          onChange={(event) => {
            setText(event.target.value);
            updateMention(event.target.value, event.target.selectionStart);
            if (event.target.value.trim() !== '') onTyping?.();
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
