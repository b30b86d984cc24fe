import { useEffect, useState } from 'react';
import type { ChatRecord, NotifyLevel } from '@confab/client';
import { Alert } from '../../components/Alert/Alert';
import { chatsOf } from '../../internal/chatClient';
import { useConfabClient } from '../../provider/hooks';

export interface NotifyLevelChoiceProps {
  chat: Pick<ChatRecord, 'id' | 'notify_level'>;
}

const choices: ReadonlyArray<{ level: NotifyLevel; label: string }> = [
  { level: 'all', label: 'All messages' },
  { level: 'mentions', label: 'Mentions and replies' },
];

/**
 * What of this chat notifies the person (docs/CONTRACTS.md, Notifications): a radio group beside
 * Mute. Mute still wins: a muted chat notifies of mentions only, whatever is chosen here.
 */
export function NotifyLevelChoice({ chat }: NotifyLevelChoiceProps) {
  const client = useConfabClient();
  const [level, setLevel] = useState<NotifyLevel>(chat.notify_level ?? 'mentions');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  // Follow the store's copy (another session of the person may change it).
  useEffect(() => setLevel(chat.notify_level ?? 'mentions'), [chat.notify_level]);

  const choose = async (next: NotifyLevel) => {
    const before = level;
    setLevel(next);
    setBusy(true);
    setError(null);
    try {
      setLevel((await chatsOf(client).setNotifyLevel(chat.id, next)).notify_level ?? next);
    } catch {
      setLevel(before);
      setError('Failed to change notifications.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <fieldset className="cf-options__choices" disabled={busy}>
      <legend>Notify me about</legend>
      {error ? <Alert>{error}</Alert> : null}
      {choices.map((choice) => (
        <label key={choice.level} className="cf-radio">
          <input type="radio" name={`cf-notify-level-${chat.id}`} value={choice.level} checked={level === choice.level} onChange={() => void choose(choice.level)} />
          <span>{choice.label}</span>
        </label>
      ))}
    </fieldset>
  );
}
