import { useState } from 'react';
import { toConfabError } from '@confab/client';
import { Alert } from '../Alert/Alert';
import { Button } from '../Button/Button';
import { dropsOf, useDropsStore } from '../../internal/dropsClient';
import { useConfabClient } from '../../provider/hooks';

export interface FollowButtonProps {
  chatId: string;
  /** Named after the button for assistive technology when several are listed ('Follow Design'). */
  chatName?: string | undefined;
  /** Whether the user follows the chat before any follow answer (the list it comes from says). */
  initialFollowing?: boolean | undefined;
  className?: string | undefined;
}

/**
 * 'Follow' a chat, or 'Following' once followed (a second click unfollows). Busy while the request
 * runs; a failure ('Failed to follow chat', 'Failed to unfollow chat') is announced.
 */
export function FollowButton({ chatId, chatName, initialFollowing = false, className }: FollowButtonProps) {
  const client = useConfabClient();
  const known = useDropsStore((state) => state.following[chatId]);
  const following = known ?? initialFollowing;
  const label = following ? 'Following' : 'Follow';
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const toggle = async () => {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      if (following) await dropsOf(client).unfollow(chatId);
      else await dropsOf(client).follow(chatId);
    } catch (failure) {
      setError(toConfabError(failure).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <span className={['cf-follow', className].filter(Boolean).join(' ')}>
      <Button
        variant={following ? 'secondary' : 'primary'}
        onClick={() => void toggle()}
        aria-busy={busy || undefined}
        aria-label={chatName ? `${label} ${chatName}` : undefined}
        className="cf-follow__button"
      >
        {label}
      </Button>
      {error !== null ? <Alert className="cf-follow__error">{error}</Alert> : null}
    </span>
  );
}
