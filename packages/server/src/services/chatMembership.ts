import { ConfabServerError } from '../errors';
import { formatTimestamp } from '../store/ids';
import type { ChatMembers } from '../store/repositories/chats';
import type { Announcements } from './announcements';
import type { ChatEvents } from './chatEvents';
import { agentTypes } from './collections/agentTypes';
import type { AccountsService } from './accounts';
import type { RequestAuth, ServiceContext } from './context';

/** The refusals of POST /api/chats/{id}/leave, worded for the person leaving. */
export const leaveRefusals = {
  lastAdmin: 'You are the last admin of this chat. Make another participant an admin before leaving.',
  onlyParticipant: 'You are the only participant. Delete the chat instead.',
} as const;

export const inviteRefusal = 'Only chat admins can invite people.';

/**
 * docs/PRODUCT.md §6 gives inviting to chat admins. The one rule for every way into a chat that
 * someone else opens: invite-to-chat (e-mail or username), share links, and `participants+` through
 * the record API (whose update rule is admins-only as a whole).
 */
export function mayInvite(members: ChatMembers, userId: string): boolean {
  return members.admins.includes(userId);
}

function isPerson(type: string | undefined): boolean {
  return type !== undefined && !(agentTypes as readonly string[]).includes(type);
}

/**
 * Why `userId` may not leave, or undefined when they may. Agents do not count as people: a chat
 * whose only person leaves would be left to its agents, with no admin able to run it.
 */
export function leaveRefusal(members: ChatMembers & { types: ReadonlyMap<string, string> }, userId: string): string | undefined {
  const otherPeople = members.participants.filter((id) => id !== userId && isPerson(members.types.get(id)));
  if (otherPeople.length === 0) return leaveRefusals.onlyParticipant;
  const otherAdmins = members.admins.filter((id) => otherPeople.includes(id));
  if (members.admins.includes(userId) && otherAdmins.length === 0) return leaveRefusals.lastAdmin;
  return undefined;
}

/** Leaving a chat: a participant takes themself out (docs/PRODUCT.md §6 lets admins remove only others). */
export class ChatMembershipService {
  constructor(
    private readonly context: ServiceContext,
    private readonly accounts: AccountsService,
    private readonly chatEvents: ChatEvents,
    private readonly announcements: Announcements,
  ) {}

  /**
   * The caller leaves the chat: chat_removed to their sockets, chat_updated to everyone who stays
   * (as a removal by an admin does). Non-participants get the same 404 as for a missing chat.
   */
  async leave(auth: RequestAuth, chatId: string): Promise<void> {
    const user = this.accounts.requireUser(auth);
    const notFound = () => new ConfabServerError('notFound', 'Chat not found');
    if (!(await this.context.store.chats.isParticipant(chatId, user.id))) throw notFound();
    const now = formatTimestamp(this.context.config.now());
    const before = await this.context.store.chats.removeParticipant(chatId, user.id, now, (members) => {
      // Checked again inside the transaction: another request may have removed the caller meanwhile.
      if (!members.participants.includes(user.id)) throw notFound();
      const refusal = leaveRefusal(members, user.id);
      if (refusal !== undefined) throw new ConfabServerError('badRequest', refusal);
    });
    if (before === undefined) throw notFound();
    const after = before.participants.filter((id) => id !== user.id);
    await this.chatEvents.changed(chatId, before.participants, after);
    await this.announcements.systemLine(chatId, user, { kind: 'left' });
  }
}
