import { notificationRefusals, notifyLevels, type NotificationSettings } from '../protocol';
import type { FakeChat, FakeUser } from './fakeBackend';
import { callerId, errorResponse, json, notFound } from './fakeHttp';

/*
 * The fake backend's notification routes (docs/CONTRACTS.md, Notifications): a chat's level for
 * the caller and the caller's e-mail switch. Bookkeeping only (docs/STYLE.md, One fake, held to
 * the real thing); the mail sweep exists on the real server alone.
 */

const temporaryEmailDomain = '@temporary.confab.invalid';
const agentTypes = ['developer-agent', 'confab-agent'];

function refused(refusal: (typeof notificationRefusals)[keyof typeof notificationRefusals]): Response {
  return errorResponse(400, refusal.message, { [refusal.field]: { code: 'validation_invalid_value', message: refusal.text } });
}

function settingsOf(user: FakeUser): NotificationSettings {
  const available = !agentTypes.includes(user.type ?? 'user') && user.email !== '' && !user.email.toLowerCase().endsWith(temporaryEmailDomain);
  return { email_notifications: available && user.email_notifications !== false, email_available: available };
}

export function createNotificationRoutes(data: { users: FakeUser[]; chats: FakeChat[]; readStateOf: (chat: FakeChat, userId: string) => unknown }) {
  return (request: Request, url: URL, body: Record<string, unknown>): Response | null => {
    const levelRoute = /^\/api\/chats\/([^/]+)\/notifications$/.exec(url.pathname);
    const settingsRoute = url.pathname === '/api/notifications/settings';
    if ((levelRoute === null || request.method !== 'POST') && !settingsRoute) return null;
    const caller = callerId(request);
    const user = data.users.find((candidate) => candidate.id === caller);
    if (caller === null || user === undefined) return errorResponse(401, 'The request requires valid record authorization token.');
    if (levelRoute !== null) {
      const level = body['level'];
      if (typeof level !== 'string' || !(notifyLevels as readonly string[]).includes(level)) return refused(notificationRefusals.level);
      const chat = data.chats.find((candidate) => candidate.id === levelRoute[1] && candidate.participants.includes(caller));
      if (chat === undefined) return notFound();
      const others = (chat.notify_all_by ?? []).filter((userId) => userId !== caller);
      chat.notify_all_by = level === 'all' ? [...others, caller] : others;
      return json(200, data.readStateOf(chat, caller));
    }
    if (request.method === 'GET') return json(200, settingsOf(user));
    if (request.method !== 'POST') return null;
    const wanted = body['email_notifications'];
    if (typeof wanted !== 'boolean') return refused(notificationRefusals.email);
    if (wanted && !settingsOf(user).email_available) return refused(notificationRefusals.noMailbox);
    user.email_notifications = wanted;
    return json(200, settingsOf(user));
  };
}
