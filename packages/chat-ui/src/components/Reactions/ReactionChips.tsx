import type { ReactionSummary } from '@confab/client';

export interface ReactionChipsProps {
  reactions: readonly ReactionSummary[];
  /** The signed-in person: their own reactions show pressed. */
  viewerId?: string | null | undefined;
  /** Clicking a chip adds (`on`) or removes the viewer's reaction. Without it the chips only show. */
  onToggle?: ((emoji: string, on: boolean) => void) | undefined;
}

/** "👍 2: ann, bob": the emoji, the count and who reacted, as the chip's name and tooltip. */
export function reactionLabel(reaction: ReactionSummary): string {
  return `${reaction.emoji} ${reaction.count}: ${reaction.users.map((user) => user.username).join(', ')}`;
}

/**
 * A message's reactions as chips under it: the emoji and the count, named (and titled) with who
 * reacted. Each chip is a toggle button for the viewer's own reaction (pressed when theirs is in).
 */
export function ReactionChips({ reactions, viewerId, onToggle }: ReactionChipsProps) {
  if (reactions.length === 0) return null;
  return (
    <ul className="cf-reactions" aria-label="Reactions">
      {reactions.map((reaction) => {
        const mine = viewerId != null && reaction.users.some((user) => user.id === viewerId);
        const label = reactionLabel(reaction);
        return (
          <li key={reaction.emoji}>
            <button
              type="button"
              className={mine ? 'cf-reaction cf-reaction--mine' : 'cf-reaction'}
              aria-pressed={mine}
              aria-label={label}
              title={label}
              disabled={onToggle === undefined}
              onClick={() => onToggle?.(reaction.emoji, !mine)}
            >
              <span aria-hidden="true">{reaction.emoji}</span> <span aria-hidden="true">{reaction.count}</span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
