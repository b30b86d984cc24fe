import type { ChatActivityFrame, NotificationSettings } from '../protocol';
import type { RealtimeConnection } from '../realtime/RealtimeConnection';
import type { ConfabStore } from '../store/createConfabStore';
import { browserEnvironment, type BrowserNotificationEnvironment } from './browserEnvironment';

export interface NotificationsServiceDependencies {
  request: <Result>(path: string, init?: { method?: string; body?: unknown }) => Promise<Result>;
  realtime: Pick<RealtimeConnection, 'on'>;
  store: ConfabStore;
  /** The browser's Notification, document and storage; default: the globals (absent outside a browser). */
  environment?: BrowserNotificationEnvironment | undefined;
}

/** What the browser allows: 'unsupported' where there is no Notification API. */
export type BrowserNotificationPermission = 'granted' | 'denied' | 'default' | 'unsupported';

/** This device's opt-in, kept apart from the permission: one may turn them off without the browser's settings. */
export const browserNotificationsStorageKey = 'confab.notifications.browser';

/**
 * Notifications (docs/CONTRACTS.md, Notifications): the person's e-mail switch on the server, and
 * browser notifications on this device: opted in from My Profile, shown for chat_activity frames
 * the server marks `notify` while the page is hidden.
 */
export class NotificationsService {
  private readonly environment: BrowserNotificationEnvironment;

  constructor(private readonly dependencies: NotificationsServiceDependencies) {
    this.environment = dependencies.environment ?? browserEnvironment();
  }

  /** GET /api/notifications/settings. */
  settings(): Promise<NotificationSettings> {
    return this.dependencies.request<NotificationSettings>('/api/notifications/settings');
  }

  /** Turns missed-mention e-mails on or off for the signed-in person. */
  setEmail(enabled: boolean): Promise<NotificationSettings> {
    return this.dependencies.request<NotificationSettings>('/api/notifications/settings', { method: 'POST', body: { email_notifications: enabled } });
  }

  browserPermission(): BrowserNotificationPermission {
    const api = this.environment.Notification;
    return api === undefined ? 'unsupported' : api.permission;
  }

  /** Opted in on this device and allowed by the browser. */
  browserEnabled(): boolean {
    return this.browserPermission() === 'granted' && this.environment.storage?.getItem(browserNotificationsStorageKey) === 'on';
  }

  /**
   * Asks the browser's permission (call it from a click: browsers refuse prompts that are not)
   * and, once granted, opts this device in. Answers the permission now.
   */
  async enableBrowser(): Promise<BrowserNotificationPermission> {
    const api = this.environment.Notification;
    if (api === undefined) return 'unsupported';
    const permission = api.permission === 'granted' ? 'granted' : await api.requestPermission();
    if (permission === 'granted') this.environment.storage?.setItem(browserNotificationsStorageKey, 'on');
    return permission;
  }

  disableBrowser(): void {
    this.environment.storage?.removeItem(browserNotificationsStorageKey);
  }

  /**
   * Shows a notification for each message the server says notifies the person, while the page is
   * hidden and notifications are on; a click focuses the window and calls `onOpen`. Answers a stop.
   *
   * @example
   * const stop = client.notifications.showInBrowser({ onOpen: (chatId, messageId) => navigate(`/chat/${chatId}?message=${messageId}`) });
   */
  showInBrowser(options: { onOpen: (chatId: string, messageId: string | undefined) => void }): () => void {
    return this.dependencies.realtime.on('chat_activity', (activity) => this.show(activity, options.onOpen));
  }

  private show(activity: ChatActivityFrame, onOpen: (chatId: string, messageId: string | undefined) => void): void {
    const api = this.environment.Notification;
    if (activity.notify !== true || api === undefined || !this.browserEnabled() || this.environment.document?.hidden !== true) return;
    const chat = this.dependencies.store.getState().chats.find((listed) => listed.id === activity.chat_id);
    const body = activity.author_name === undefined ? (activity.preview ?? '') : `${activity.author_name}: ${activity.preview ?? ''}`;
    const notification = new api(chat?.name ?? 'Confab', { body, tag: activity.chat_id });
    notification.onclick = () => {
      this.environment.focus?.();
      onOpen(activity.chat_id, activity.message_id);
      notification.close();
    };
  }
}
