import { LazyMessageActionPanel, LazyReactionPicker } from '../../internal/lazyParts';

export type MessageAction = 'react' | 'edit' | 'delete';

export interface MessageActionsProps {
  /** Offer "Add reaction" (the picker). Default false. */
  canReact?: boolean | undefined;
  canEdit: boolean;
  canDelete: boolean;
  /** Offer Reply (docs/CONTRACTS.md, Replies); absent: no Reply. */
  onReply?: (() => void) | undefined;
  /** While the editor, the delete question or the picker is open: hidden, yet kept for the focus to come back to. */
  hidden: boolean;
  onAction: (action: MessageAction) => void;
}

// What the buttons open loads on demand: pointing at or focusing the bar fetches it ahead.
const preload = () => {
  void LazyMessageActionPanel.preload();
  void LazyReactionPicker.preload();
};

/**
 * Add reaction, Edit, Reply and Delete, over the corner of a message while the pointer is on it or
 * the focus is in the bar (Tab reaches the buttons like any other). Which of them a message offers
 * is the list's call. Each button names its action in `data-action`, for the focus to return to it.
 */
export function MessageActions({ canReact = false, canEdit, canDelete, onReply, hidden, onAction }: MessageActionsProps) {
  return (
    <div className="cf-message__actions" role="group" aria-label="Message actions" hidden={hidden} onPointerEnter={preload} onFocus={preload}>
      {canReact ? (
        <button type="button" className="cf-message__action" data-action="react" aria-label="Add reaction" title="Add reaction" onClick={() => onAction('react')}>
          <span aria-hidden="true">☺+</span>
        </button>
      ) : null}
      {canEdit ? (
        <button type="button" className="cf-message__action" data-action="edit" onClick={() => onAction('edit')}>
          Edit
        </button>
      ) : null}
      {onReply !== undefined ? (
        <button type="button" className="cf-message__action" data-action="reply" onClick={onReply}>
          Reply
        </button>
      ) : null}
      {canDelete ? (
        <button type="button" className="cf-message__action cf-message__action--danger" data-action="delete" onClick={() => onAction('delete')}>
          Delete
        </button>
      ) : null}
    </div>
  );
}
