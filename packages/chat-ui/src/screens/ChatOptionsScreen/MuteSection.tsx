import { useEffect, useId, useState } from 'react';
import type { ChatRecord } from '@confab/client';
import { Alert } from '../../components/Alert/Alert';
import { chatsOf } from '../../internal/chatClient';
import { useConfabClient } from '../../provider/hooks';
import { NotifyLevelChoice } from './NotifyLevelChoice';

export interface MuteSectionProps {
  chat: Pick<ChatRecord, 'id' | 'muted' | 'notify_level'>;
}

/**
 * The person's own mute switch: every participant has one, admin or not. A muted chat shows a
 * dot instead of an unread count and never notifies, except when someone mentions them.
 */
export function MuteSection({ chat }: MuteSectionProps) {
  const client = useConfabClient();
  const hintId = useId();
  const [muted, setMuted] = useState(chat.muted === true);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  // Follow the store's copy (another session of the person may change it).
  useEffect(() => setMuted(chat.muted === true), [chat.muted]);

  const toggle = async () => {
    const next = !muted;
    setMuted(next);
    setBusy(true);
    setError(null);
    try {
      // The answer is the server's word; the chat list takes it too.
      setMuted((await chatsOf(client).setMuted(chat.id, next)).muted);
    } catch {
      setMuted(!next);
      setError('Failed to change mute.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="cf-card cf-options__section" aria-labelledby="cf-options-mute">
      <h2 id="cf-options-mute">Notifications</h2>
      <NotifyLevelChoice chat={chat} />
      {error ? <Alert>{error}</Alert> : null}
      <label className="cf-toggle">
        <input type="checkbox" role="switch" checked={muted} disabled={busy} aria-describedby={hintId} onChange={() => void toggle()} />
        <span>Mute this chat</span>
      </label>
      <p id={hintId} className="cf-field__hint">
        No unread count and no notifications, except when someone mentions you.
      </p>
    </section>
  );
}
