import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConfabClient } from '../client/ConfabClient';
import type { ChatActivityFrame } from '../protocol';
import { connectedClient } from '../testing/connectedClient';
import { startFakeGateway, type FakeGateway } from '../testing/fakeGateway';
import { startFakeServer, type FakeServer } from '../testing/fakeServer';
import { waitUntil } from '../testing/waitUntil';
import type { BrowserNotificationEnvironment } from './browserEnvironment';
import { browserNotificationsStorageKey } from './NotificationsService';

/**
 * The browser notifier through the real client and the fake gateway. Node has no Notification
 * API, so a recording stand-in takes the browser's place here; the reference app's e2e test runs
 * the real one in Chromium.
 */
interface Shown {
  title: string;
  options: { body: string; tag: string };
  instance: { onclick: ((event: Event) => void) | null; close(): void; closed: boolean };
}

function pageEnvironment(permission: 'granted' | 'denied' | 'default', answer: 'granted' | 'denied' = 'granted') {
  const shown: Shown[] = [];
  const stored = new Map<string, string>();
  const page = { hidden: true, focused: 0, permissionRequests: 0 };
  class RecordingNotification {
    static permission = permission;
    static async requestPermission() {
      page.permissionRequests += 1;
      RecordingNotification.permission = answer;
      return answer;
    }
    onclick: ((event: Event) => void) | null = null;
    closed = false;
    constructor(title: string, options: { body: string; tag: string }) {
      shown.push({ title, options, instance: this });
    }
    close() {
      this.closed = true;
    }
  }
  const environment: BrowserNotificationEnvironment = {
    Notification: RecordingNotification,
    document: page,
    storage: { getItem: (key) => stored.get(key) ?? null, setItem: (key, value) => void stored.set(key, value), removeItem: (key) => void stored.delete(key) },
    focus: () => void (page.focused += 1),
  };
  return { environment, shown, page, stored };
}

const activity = (fields: Partial<ChatActivityFrame>): ChatActivityFrame => ({
  type: 'chat_activity',
  chat_id: 'launch',
  seq: 1,
  author_id: 'bob000000000001',
  updated: '2026-03-02 10:00:00.000Z',
  mentions_you: false,
  ...fields,
});

let server: FakeServer;
let gateway: FakeGateway;
let client: ConfabClient;

beforeEach(async () => {
  server = await startFakeServer();
  gateway = await startFakeGateway();
  server.addChat({ id: 'launch', name: 'Launch Plan', participants: ['alice0000000001'] });
});

afterEach(async () => {
  client.logout();
  await gateway.close();
  await server.close();
});

describe('client.notifications in the browser', () => {
  it('asks the permission only when enabled, then shows what the server marks notify while the page is hidden', async () => {
    const page = pageEnvironment('default');
    client = await connectedClient(server, gateway, { notificationEnvironment: page.environment });
    await client.chats.list();
    const opened: Array<[string, string | undefined]> = [];
    client.notifications.showInBrowser({ onOpen: (chatId, messageId) => opened.push([chatId, messageId]) });
    expect(page.page.permissionRequests).toBe(0);
    expect(client.notifications.browserEnabled()).toBe(false);

    gateway.push(activity({ seq: 1, notify: true, message_id: 'm1', author_name: 'Bob', preview: 'before opting in' }));
    await waitUntil(() => client.store.getState().chats.find((chat) => chat.id === 'launch')?.last_seq === 1, 'the activity');
    expect(await client.notifications.enableBrowser()).toBe('granted');
    expect(page.page.permissionRequests).toBe(1);
    expect(page.stored.get(browserNotificationsStorageKey)).toBe('on');

    gateway.push(activity({ seq: 2 }));
    gateway.push(activity({ seq: 3, notify: true, mentions_you: true, message_id: 'm3', author_name: 'Bob', preview: '@alice look' }));
    await waitUntil(() => client.store.getState().chats.find((chat) => chat.id === 'launch')?.last_seq === 3, 'the activity');
    await waitUntil(() => page.shown.length === 1, 'a notification');
    expect(page.shown.map((shown) => [shown.title, shown.options])).toEqual([['Launch Plan', { body: 'Bob: @alice look', tag: 'launch' }]]);

    page.shown[0]!.instance.onclick?.(new Event('click'));
    expect(opened).toEqual([['launch', 'm3']]);
    expect(page.page.focused).toBe(1);
    expect(page.shown[0]!.instance.closed).toBe(true);

    // Visible page: the chat list shows it already. Turned off on this device: nothing either.
    page.page.hidden = false;
    gateway.push(activity({ seq: 4, notify: true, message_id: 'm4', author_name: 'Bob', preview: 'seen' }));
    await waitUntil(() => client.store.getState().chats.find((chat) => chat.id === 'launch')?.last_seq === 4, 'the activity');
    page.page.hidden = true;
    client.notifications.disableBrowser();
    gateway.push(activity({ seq: 5, notify: true, message_id: 'm5', author_name: 'Bob', preview: 'off' }));
    await waitUntil(() => client.store.getState().chats.find((chat) => chat.id === 'launch')?.last_seq === 5, 'the activity');
    expect(page.shown).toHaveLength(1);
  });

  it('reports a browser that blocks notifications, or has none', async () => {
    const blocked = pageEnvironment('default', 'denied');
    client = await connectedClient(server, gateway, { notificationEnvironment: blocked.environment });
    expect(await client.notifications.enableBrowser()).toBe('denied');
    expect(client.notifications.browserPermission()).toBe('denied');
    expect(blocked.stored.has(browserNotificationsStorageKey)).toBe(false);
    client.logout();
    client = await connectedClient(server, gateway, { notificationEnvironment: {} });
    expect(client.notifications.browserPermission()).toBe('unsupported');
    expect(await client.notifications.enableBrowser()).toBe('unsupported');
  });
});
