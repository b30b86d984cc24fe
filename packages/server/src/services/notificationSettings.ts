import { notificationRefusals, type NotificationSettings } from '@confab/client/protocol';
import { ConfabServerError } from '../errors';
import { formatTimestamp } from '../store/ids';
import type { UserRow } from '../store/repositories/users';
import { agentTypes } from './collections/agentTypes';
import type { ServiceContext } from './context';
import { temporaryEmailDomain } from './invitations';
import { userOfUnsubscribeToken } from './unsubscribeTokens';

function refused(refusal: (typeof notificationRefusals)[keyof typeof notificationRefusals]): ConfabServerError {
  return new ConfabServerError('badRequest', refusal.message, { [refusal.field]: { code: 'validation_invalid_value', message: refusal.text } });
}

/** People with a mailbox of their own: not agents, not temporary accounts (docs/CONTRACTS.md, Notifications). */
export function hasMailbox(user: Pick<UserRow, 'type' | 'email'>): boolean {
  return !(agentTypes as readonly string[]).includes(user.type) && user.email !== '' && !user.email.toLowerCase().endsWith(`@${temporaryEmailDomain}`);
}

/** The person's e-mail switch for missed mentions: read, set, and turned off by a mail's unsubscribe link. */
export class NotificationSettingsService {
  constructor(private readonly context: ServiceContext) {}

  settingsOf(user: UserRow): NotificationSettings {
    const available = hasMailbox(user);
    return { email_notifications: available && Number(user.email_notifications) === 1, email_available: available };
  }

  async setEmailNotifications(user: UserRow, value: unknown): Promise<NotificationSettings> {
    if (typeof value !== 'boolean') throw refused(notificationRefusals.email);
    if (value && !hasMailbox(user)) throw refused(notificationRefusals.noMailbox);
    await this.context.store.users.update(user.id, { email_notifications: value ? 1 : 0, updated: this.now() });
    return this.settingsOf({ ...user, email_notifications: value ? 1 : 0 });
  }

  /** Turns the token's person's mails off; false when the token is not one of this server's. */
  async unsubscribe(token: unknown): Promise<boolean> {
    const userId = userOfUnsubscribeToken(this.context.config.secret, token);
    if (userId === undefined) return false;
    const user = await this.context.store.users.findById(userId);
    if (user === undefined) return false;
    await this.context.store.users.update(user.id, { email_notifications: 0, updated: this.now() });
    return true;
  }

  private now(): string {
    return formatTimestamp(this.context.config.now());
  }
}
