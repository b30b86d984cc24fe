import { LazyMessageActionPanel } from '../../internal/lazyParts';

export type MessageAction = 'edit' | 'delete';

export interface MessageActionsProps {
  canEdit: boolean;
  canDelete: boolean;
  /** Offer Reply (between Edit and Delete: MessageActionPanel gives the focus back to the first and last). */
  onReply?: (() => void) | undefined;
  /** While the editor or the delete question is open: hidden, yet kept for the focus to come back to. */
  hidden: boolean;
  onAction: (action: MessageAction) => void;
}

// What the buttons open loads on demand: pointing at or focusing the bar fetches it ahead.
const preload = () => void LazyMessageActionPanel.preload();

/**
 * Edit, Reply and Delete, over the corner of a message while the pointer is on it or the focus is in the
 * bar (Tab reaches the buttons like any other). Which of them a message offers is the list's call.
 */
export function MessageActions({ canEdit, canDelete, onReply, hidden, onAction }: MessageActionsProps) {
  return (
    <div className="cf-message__actions" role="group" aria-label="Message actions" hidden={hidden} onPointerEnter={preload} onFocus={preload}>
      {canEdit ? (
        <button type="button" className="cf-message__action" onClick={() => onAction('edit')}>
          Edit
        </button>
      ) : null}
      {onReply !== undefined ? (
        <button type="button" className="cf-message__action" onClick={onReply}>
          Reply
        </button>
      ) : null}
      {canDelete ? (
        <button type="button" className="cf-message__action cf-message__action--danger" onClick={() => onAction('delete')}>
          Delete
        </button>
      ) : null}
    </div>
  );
}
