import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ChatReadState, NotificationSettings } from '@confab/client/protocol';
import type { Services } from '../services/index';
import { objectBody } from './recordRoutes';

/** A small page of its own: no scripts, nothing loaded, not framed. */
function page(reply: FastifyReply, status: number, title: string, text: string): FastifyReply {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${title}</title></head><body><main><h1>${title}</h1><p>${text}</p></main></body></html>`;
  return reply
    .code(status)
    .header('content-security-policy', "default-src 'none'; frame-ancestors 'none'")
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(html);
}

/**
 * Notifications (docs/CONTRACTS.md, Notifications): a chat's level for the caller, the caller's
 * e-mail switch, and the unsubscribe link of the missed-mention mails (its signed token is the
 * only credential it needs, so it works from a mail program without a session).
 */
export function registerNotificationRoutes(app: FastifyInstance, services: Services): void {
  app.post<{ Params: { id: string } }>('/api/chats/:id/notifications', async (request): Promise<ChatReadState> => {
    const user = services.accounts.requireUser(request.confabAuth);
    return services.reads.setNotifyLevel(user, request.params.id, objectBody(request)['level']);
  });

  app.get('/api/notifications/settings', async (request): Promise<NotificationSettings> => {
    return services.notificationSettings.settingsOf(services.accounts.requireUser(request.confabAuth));
  });

  app.post('/api/notifications/settings', async (request): Promise<NotificationSettings> => {
    const user = services.accounts.requireUser(request.confabAuth);
    return services.notificationSettings.setEmailNotifications(user, objectBody(request)['email_notifications']);
  });

  // GET from the mail's link; POST from a mail program's one-click button (RFC 8058).
  const unsubscribe = async (request: { query: unknown }, reply: FastifyReply) => {
    const token = (request.query as Record<string, unknown> | undefined)?.['token'];
    if (!(await services.notificationSettings.unsubscribe(token))) {
      return page(reply, 400, 'Link not valid', 'This unsubscribe link is not valid. You can turn the mails off in My Profile.');
    }
    return page(reply, 200, 'Unsubscribed', 'You will get no more e-mails about mentions you miss. You can turn them on again in My Profile.');
  };
  app.get('/api/notifications/unsubscribe', unsubscribe);
  app.post('/api/notifications/unsubscribe', unsubscribe);
}
