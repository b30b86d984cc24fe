export interface ReplyBannerProps {
  /** Who wrote the message being answered. */
  authorName: string;
  onCancel: () => void;
}

/**
 * "Replying to ann" above the message input while a reply is being written, with a Cancel button
 * (Escape in the input cancels too: ChatPage listens for it).
 */
export function ReplyBanner({ authorName, onCancel }: ReplyBannerProps) {
  return (
    <div className="cf-reply-banner" role="status">
      <span className="cf-reply-banner__text">Replying to {authorName}</span>
      <button type="button" className="cf-reply-banner__cancel" aria-label={`Cancel reply to ${authorName}`} onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}
