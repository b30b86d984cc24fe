import type { ChatFilesChangedFrame, InvitationsChangedFrame } from '@confab/client/protocol';
import { userChannel, type ChatListEvent, type RevokeEvent } from '../realtime/channels';
import type { UserRow } from '../store/repositories/users';
import type { RecordCollection, RecordJson } from './collections/types';
import type { ServiceContext } from './context';
import type { RecordsService } from './records';

const guest = { user: undefined, ip: '' };

/**
 * Chat-list events (chat_added, chat_updated, chat_removed, chat_deleted) on `user:<id>` for
 * every change the chats rules make, whichever API made it. The chat is rendered once, as the
 * record API returns it with participants and admins expanded; every expanded user carries
 * public fields only, so one frame serves every recipient.
 */
export class ChatEvents {
  private records: RecordsService | undefined;
  private users: RecordCollection | undefined;

  constructor(private readonly context: ServiceContext) {}

  /** The records service is built after the collections that emit events; wire it in late. */
  attach(records: RecordsService, users: RecordCollection): void {
    this.records = records;
    this.users = users;
  }

  private async render(actor: UserRow, chatId: string): Promise<RecordJson | undefined> {
    if (this.records === undefined || this.users === undefined) return undefined;
    const chat = await this.records.view('chats', { user: actor, ip: '' }, chatId, { expand: 'participants,admins' });
    // Rendered for the actor, the actor's own entry holds private fields; swap in the public one.
    const [publicActor] = await this.users.serialize([actor], guest);
    const expand = chat['expand'] as Record<string, RecordJson[]> | undefined;
    for (const field of ['participants', 'admins']) {
      const list = expand?.[field];
      if (expand !== undefined && list !== undefined && publicActor !== undefined) {
        expand[field] = list.map((user) => (user.id === actor.id ? publicActor : user));
      }
    }
    return chat;
  }

  private async send(userIds: Iterable<string>, event: ChatListEvent | RevokeEvent): Promise<void> {
    const sends = [...userIds].map((userId) => this.context.bus.publish(userChannel(userId), event));
    const failures = (await Promise.allSettled(sends)).filter((result) => result.status === 'rejected');
    if (failures.length > 0) this.context.logger.error({ failures: failures.length }, 'chat event publish failed');
  }

  private listEvent(chatId: string, frame: object, detach: boolean): ChatListEvent {
    return { kind: 'chat_list', chat_id: chatId, frame: JSON.stringify(frame), detach };
  }

  /** After a create or update: added users get chat_added, kept ones chat_updated, removed ones chat_removed. */
  async changed(actor: UserRow, chatId: string, before: readonly string[], after: readonly string[]): Promise<void> {
    try {
      const chat = await this.render(actor, chatId);
      const beforeSet = new Set(before);
      const afterSet = new Set(after);
      const removed = before.filter((id) => !afterSet.has(id));
      if (removed.length > 0) {
        await this.send(removed, this.listEvent(chatId, { type: 'chat_removed', chat_id: chatId }, true));
      }
      if (chat === undefined) return;
      const added = after.filter((id) => !beforeSet.has(id));
      const kept = after.filter((id) => beforeSet.has(id));
      if (added.length > 0) await this.send(added, this.listEvent(chatId, { type: 'chat_added', chat }, false));
      if (kept.length > 0) await this.send(kept, this.listEvent(chatId, { type: 'chat_updated', chat }, false));
    } catch (error) {
      this.context.logger.error({ error: String(error), chatId }, 'chat event failed');
    }
  }

  async deleted(chatId: string, participants: readonly string[]): Promise<void> {
    await this.send(participants, this.listEvent(chatId, { type: 'chat_deleted', chat_id: chatId }, true));
  }

  /** A file was uploaded to or deleted from the chat: every participant's open files panel refreshes. */
  async filesChanged(chatId: string, action: ChatFilesChangedFrame['action'], fileId: string): Promise<void> {
    try {
      const participants = (await this.context.store.chats.membersOf([chatId])).get(chatId)?.participants ?? [];
      const frame: ChatFilesChangedFrame = { type: 'chat_files_changed', chat_id: chatId, action, file_id: fileId };
      await this.send(participants, this.listEvent(chatId, frame, false));
    } catch (error) {
      this.context.logger.error({ error: String(error), chatId }, 'files event failed');
    }
  }

  /**
   * The user's pending invitations changed (one arrived, or was accepted or declined): their open
   * apps load the list again. Delivered on the user channel like the chat-list frames, for the
   * chat the invitation is to; it detaches nothing.
   */
  async invitationsChanged(userId: string, chatId: string): Promise<void> {
    const frame: InvitationsChangedFrame = { type: 'invitations_changed' };
    await this.send([userId], this.listEvent(chatId, frame, false));
  }

  /** Tokens of the user were revoked: every instance closes that user's sockets. */
  async revoked(userId: string): Promise<void> {
    await this.send([userId], { kind: 'revoke' });
  }
}
