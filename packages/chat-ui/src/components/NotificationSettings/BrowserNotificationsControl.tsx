import { useState } from 'react';
import type { BrowserNotificationPermission } from '@confab/client';
import type { ConfabUiNotifications } from '../../provider/clientInterface';
import { Button } from '../Button/Button';

type BrowserState = 'on' | 'off' | 'blocked' | 'unsupported';

function stateOf(notifications: ConfabUiNotifications): BrowserState {
  const permission: BrowserNotificationPermission = notifications.browserPermission();
  if (permission === 'unsupported') return 'unsupported';
  if (permission === 'denied') return 'blocked';
  return notifications.browserEnabled() ? 'on' : 'off';
}

const stateTexts: Record<BrowserState, string> = {
  on: 'Browser notifications are on for this device.',
  off: 'Browser notifications are off for this device.',
  blocked: 'Blocked by the browser: allow notifications for this site in its settings.',
  unsupported: 'This browser does not support notifications.',
};

/** The device's opt-in: the permission prompt comes only from the button's click, as browsers require. */
export function BrowserNotificationsControl({ notifications }: { notifications: ConfabUiNotifications }) {
  const [state, setState] = useState<BrowserState>(() => stateOf(notifications));
  const [asking, setAsking] = useState(false);

  const turnOn = async () => {
    setAsking(true);
    try {
      await notifications.enableBrowser();
    } finally {
      setAsking(false);
      setState(stateOf(notifications));
    }
  };
  const turnOff = () => {
    notifications.disableBrowser();
    setState(stateOf(notifications));
  };

  return (
    <div className="cf-field">
      <p className="cf-field__hint">{stateTexts[state]}</p>
      {state === 'off' ? (
        <Button type="button" disabled={asking} aria-busy={asking} onClick={() => void turnOn()}>
          Turn on browser notifications
        </Button>
      ) : null}
      {state === 'on' ? (
        <Button type="button" variant="secondary" onClick={turnOff}>
          Turn off browser notifications
        </Button>
      ) : null}
    </div>
  );
}
