import type { Typist } from '@confab/client';

export interface TypingIndicatorProps {
  /** Who is typing in the open chat (store.typists of the chat), in the order they started. */
  typists: readonly Typist[];
}

/**
 * The line under the message list: 'ann is typing…', 'ann and bob are typing…', or
 * 'several people are typing…' from three on (docs/CONTRACTS.md, Typing and presence). People go
 * by their username, as mentions name them.
 */
export function typingText(typists: readonly Pick<Typist, 'username'>[]): string {
  const [first, second] = typists;
  if (first === undefined) return '';
  if (second === undefined) return `${first.username} is typing…`;
  if (typists.length === 2) return `${first.username} and ${second.username} are typing…`;
  return 'several people are typing…';
}

/**
 * Who else is typing in the open chat. A polite live region that is always present (empty while
 * nobody types), so the line is announced without taking the focus; agents' status lines stay in
 * AgentStatusBar.
 */
export function TypingIndicator({ typists }: TypingIndicatorProps) {
  const text = typingText(typists);
  return (
    <div className="cf-typing-indicator" role="status" aria-live="polite" aria-label="Who is typing">
      {text === '' ? null : (
        <p className="cf-typing-indicator__line">
          <span className="cf-typing" aria-hidden="true">
            <span />
            <span />
            <span />
          </span>{' '}
          {text}
        </p>
      )}
    </div>
  );
}
