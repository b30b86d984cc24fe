import { useEffect, useId, useState } from 'react';
import type { NotificationSettings as EmailSettings } from '@confab/client';
import type { ConfabUiNotifications } from '../../provider/clientInterface';
import { Alert } from '../Alert/Alert';
import { Button } from '../Button/Button';
import { BrowserNotificationsControl } from './BrowserNotificationsControl';

export interface NotificationSettingsProps {
  /** The client's notifications (`client.notifications`). */
  notifications: ConfabUiNotifications;
}

type EmailState = { kind: 'loading' } | { kind: 'failed' } | { kind: 'ready'; settings: EmailSettings };

/**
 * My Profile's "Notifications" (docs/CONTRACTS.md, Notifications): browser notifications on this
 * device (the browser's permission is asked on the button's click only) and the switch for
 * e-mails about mentions and replies left unread.
 */
export function NotificationSettings({ notifications }: NotificationSettingsProps) {
  const hintId = useId();
  const [email, setEmail] = useState<EmailState>({ kind: 'loading' });
  const [busy, setBusy] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);

  const load = () => {
    setEmail({ kind: 'loading' });
    notifications.settings().then(
      (settings) => setEmail({ kind: 'ready', settings }),
      () => setEmail({ kind: 'failed' }),
    );
  };
  useEffect(load, [notifications]);

  const toggleEmail = async (settings: EmailSettings) => {
    setBusy(true);
    setSaveError(null);
    try {
      setEmail({ kind: 'ready', settings: await notifications.setEmail(!settings.email_notifications) });
    } catch {
      setSaveError('Failed to change e-mail notifications.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="cf-form cf-card" aria-labelledby="cf-profile-notifications">
      <h2 id="cf-profile-notifications">Notifications</h2>
      <BrowserNotificationsControl notifications={notifications} />
      {email.kind === 'loading' ? <p className="cf-field__hint">Loading e-mail settings…</p> : null}
      {email.kind === 'failed' ? (
        <>
          <Alert>Failed to load e-mail settings.</Alert>
          <Button type="button" variant="secondary" onClick={load}>
            Try again
          </Button>
        </>
      ) : null}
      {email.kind === 'ready' ? (
        <>
          {saveError ? <Alert>{saveError}</Alert> : null}
          <label className="cf-toggle">
            <input
              type="checkbox"
              role="switch"
              checked={email.settings.email_notifications}
              disabled={busy || !email.settings.email_available}
              aria-describedby={hintId}
              onChange={() => void toggleEmail(email.settings)}
            />
            <span>E-mail me about mentions I miss</span>
          </label>
          <p id={hintId} className="cf-field__hint">
            {email.settings.email_available
              ? 'One mail per chat when a mention of you or a reply to you stays unread while you are away.'
              : 'This account has no e-mail address to write to.'}
          </p>
        </>
      ) : null}
    </section>
  );
}
