import { useEffect, useId, useRef, useState } from 'react';
import { constants, messages, toConfabError, validateDrop, type WireDrop } from '@confab/client';
import { Alert } from '../Alert/Alert';
import { Button } from '../Button/Button';
import { dropPath, dropsOf } from '../../internal/dropsClient';
import { useCreateSubmission } from '../../internal/useCreateSubmission';
import { useModalDialog } from '../../internal/useModalDialog';
import { useConfabClient, useNavigate } from '../../provider/hooks';

export interface CreateDropModalProps {
  /** The chat the drop is published from (the user must take part in it). */
  chatId: string;
  /** Shown under the title ('From Design'). */
  chatName?: string | undefined;
  /** Escape, a click on the backdrop, Cancel and × call it. */
  onClose: () => void;
  /** After publishing; default: open /drops/{slug} (docs/PRODUCT.md §7). */
  onCreated?: ((drop: WireDrop) => void) | undefined;
}

const { titleMaxLength, contentMaxLength } = constants.drop;

/** What a refused creation says: the docs/PRODUCT.md §8 text, with the server's reason when it gave one. */
function creationFailure(error: unknown): string {
  const failure = toConfabError(error);
  const detail = Object.values(failure.fieldErrors)[0]?.message ?? failure.serverMessage;
  return detail ? `${messages.createDropFailed}: ${detail}` : messages.createDropFailed;
}

/**
 * docs/PRODUCT.md §2 Create a Drop modal: a title (up to 100 characters) and content (up to 2000),
 * each with a counter; a note that anyone signed in on the server can read it, whatever chat it
 * comes from; 'Creating...' while it publishes; then the new drop opens. It closes on
 * Escape, a backdrop click, Cancel or ×, and keeps focus inside while open. A failure is shown here
 * (role=alert) and the form stays filled.
 */
export function CreateDropModal({ chatId, chatName, onClose, onCreated }: CreateDropModalProps) {
  const client = useConfabClient();
  const navigate = useNavigate();
  const headingId = useId();
  const titleId = useId();
  const contentId = useId();
  const audienceId = useId();
  const dialogRef = useRef<HTMLDivElement>(null);
  const titleRef = useRef<HTMLInputElement>(null);
  const [title, setTitle] = useState('');
  const [content, setContent] = useState('');
  const open = useRef(true);
  useEffect(
    () => () => {
      open.current = false;
    },
    [],
  );
  const onKeyDown = useModalDialog(dialogRef, { onClose, initialFocusRef: titleRef });

  const { error, busy, submit } = useCreateSubmission({
    validate: () => validateDrop({ title, content }),
    create: () => dropsOf(client).createDrop({ chat_id: chatId, title, content }),
    errorMessage: creationFailure,
    onCreated: (drop) => {
      // Closed meanwhile: the drop exists, but the person has moved on.
      if (!open.current) return;
      if (onCreated) onCreated(drop);
      else navigate(dropPath(drop.slug));
    },
    // The new drop opens next; until then the form stays busy, so a second submit is ignored.
    staysBusyAfterSuccess: true,
  });

  return (
    <div
      className="cf-dialog-backdrop"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <div ref={dialogRef} role="dialog" aria-modal="true" aria-labelledby={headingId} tabIndex={-1} className="cf-dialog cf-create-drop" onKeyDown={onKeyDown}>
        <header className="cf-dialog__header">
          <h2 id={headingId} className="cf-dialog__title">
            Create a Drop
          </h2>
          <button type="button" className="cf-dialog__close" aria-label="Close" onClick={onClose}>
            ×
          </button>
        </header>
        {chatName ? <p className="cf-create-drop__from">From {chatName}</p> : null}
        <form className="cf-stack" aria-labelledby={headingId} noValidate onSubmit={(event) => void submit(event)}>
          <div className="cf-field">
            <label className="cf-field__label" htmlFor={titleId}>
              Title
            </label>
            <input
              ref={titleRef}
              id={titleId}
              className="cf-field__input"
              value={title}
              maxLength={titleMaxLength}
              onChange={(event) => setTitle(event.target.value)}
              readOnly={busy}
              aria-describedby={`${titleId}-count`}
              autoComplete="off"
            />
            <p id={`${titleId}-count`} className="cf-field__hint cf-create-drop__counter">
              {title.length}/{titleMaxLength}
            </p>
          </div>
          <div className="cf-field">
            <label className="cf-field__label" htmlFor={contentId}>
              Content
            </label>
            <textarea
              id={contentId}
              className="cf-field__input cf-create-drop__content"
              value={content}
              maxLength={contentMaxLength}
              rows={10}
              onChange={(event) => setContent(event.target.value)}
              readOnly={busy}
              aria-describedby={`${contentId}-count`}
            />
            <p id={`${contentId}-count`} className="cf-field__hint cf-create-drop__counter">
              {content.length}/{contentMaxLength}
            </p>
          </div>
          {error !== null ? <Alert>{error}</Alert> : null}
          {/* Drops are published (docs/ARCHITECTURE.md, Decisions): said before publishing, not after. */}
          <p id={audienceId} className="cf-create-drop__audience">
            {messages.dropAudienceNote}
          </p>
          <div className="cf-dialog__actions">
            <Button variant="secondary" onClick={onClose}>
              Cancel
            </Button>
            {/* Not disabled while busy: focus stays on it (and in the dialog); a second submit is ignored. */}
            <Button type="submit" aria-disabled={busy || undefined} aria-describedby={audienceId}>
              {busy ? 'Creating...' : 'Create Drop'}
            </Button>
          </div>
        </form>
      </div>
    </div>
  );
}
