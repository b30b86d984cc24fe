import type { ReplyPreview } from '@confab/client';

export interface ReplyQuoteProps {
  /** What the reply quotes of its original (the message's `reply_to_preview`). */
  preview: ReplyPreview;
  /** Scrolls to the original and highlights it (MessageList loads it when it is not in view). */
  onJump?: ((messageId: string) => void) | undefined;
}

/**
 * The compact quote a reply shows above its text: the original's author and first line, or
 * "original deleted" once it is gone. A button: it takes the reader to the original.
 */
export function ReplyQuote({ preview, onJump }: ReplyQuoteProps) {
  const deleted = preview.deleted === true;
  const text = deleted ? 'original deleted' : preview.excerpt;
  return (
    <button
      type="button"
      className={['cf-reply-quote', deleted && 'cf-reply-quote--deleted'].filter(Boolean).join(' ')}
      aria-label={`Replying to ${preview.author_name}: ${text}. Show the original`}
      disabled={deleted}
      onClick={() => onJump?.(preview.message_id)}
    >
      <span className="cf-reply-quote__author">{preview.author_name}</span>{' '}
      <span className="cf-reply-quote__excerpt">{text}</span>
    </button>
  );
}

export interface RepliesButtonProps {
  count: number;
  onOpen: () => void;
}

/** "1 reply" / "N replies" under an original: opens its thread beside the chat. */
export function RepliesButton({ count, onOpen }: RepliesButtonProps) {
  return (
    <button type="button" className="cf-replies-button" onClick={onOpen}>
      {count === 1 ? '1 reply' : `${count} replies`}
    </button>
  );
}
