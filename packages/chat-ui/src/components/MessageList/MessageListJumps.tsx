export interface MessageListJumpsProps {
  /** Offer 'Jump to first unread': the 'New messages' divider is above the view. */
  toFirstUnread: boolean;
  /** Offer 'Jump to latest': the view is away from the bottom. */
  toLatest: boolean;
  onJumpToFirstUnread: () => void;
  onJumpToLatest: () => void;
}

/**
 * The message list's jump buttons, floating over it (outside its log, so screen readers do not
 * read them as messages). Plain buttons: Tab reaches them after the list, Enter or Space jumps.
 */
export function MessageListJumps({ toFirstUnread, toLatest, onJumpToFirstUnread, onJumpToLatest }: MessageListJumpsProps) {
  return (
    <>
      {toFirstUnread ? (
        <button type="button" className="cf-message-list__jump cf-message-list__jump--unread" onClick={onJumpToFirstUnread}>
          <span aria-hidden="true">↑</span> Jump to first unread
        </button>
      ) : null}
      {toLatest ? (
        <button type="button" className="cf-message-list__jump cf-message-list__jump--latest" onClick={onJumpToLatest}>
          <span aria-hidden="true">↓</span> Jump to latest
        </button>
      ) : null}
    </>
  );
}
