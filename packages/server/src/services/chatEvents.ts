import type { ChatFilesChangedFrame, InvitationsChangedFrame, ServerFrame, WireChat } from '@confab/client/protocol';
import { userChannel, type ChatListEvent } from '../realtime/channels';
import { chatsToJson } from './collections/chats';
import { formatTimestamp } from '../store/ids';
import type { RecordCollection, RecordJson } from './collections/types';
import type { ServiceContext } from './context';

const guest = { user: undefined, ip: '' };

/**
 * Chat-list events (chat_added, chat_updated, chat_removed, chat_deleted) on `user:<id>` for
 * every change the chats rules make, whichever API made it. The chat is rendered once, as the
 * record API returns it with participants and admins expanded; every expanded user carries
 * public fields only, so one frame serves every recipient.
 */
export class ChatEvents {
  constructor(
    private readonly context: ServiceContext,
    private readonly users: RecordCollection,
  ) {}

  private async render(chatId: string): Promise<RecordJson | undefined> {
    const row = await this.context.store.chats.findById(chatId);
    if (row === undefined) return undefined;
    const [chat] = await chatsToJson(this.context, [row]);
    if (chat === undefined) return undefined;
    const participants = chat['participants'] as string[];
    const admins = chat['admins'] as string[];
    const people = await this.users.serialize(await this.context.store.users.findManyByIds([...participants]), guest);
    const byId = new Map(people.map((person) => [person.id, person]));
    const pick = (ids: string[]) => ids.map((id) => byId.get(id)).filter((person): person is RecordJson => person !== undefined);
    return { ...chat, expand: { participants: pick(participants), admins: pick(admins) } };
  }

  private async send(userIds: Iterable<string>, event: ChatListEvent): Promise<void> {
    const sends = [...userIds].map((userId) => this.context.bus.publish(userChannel(userId), event));
    const failures = (await Promise.allSettled(sends)).filter((result) => result.status === 'rejected');
    if (failures.length > 0) this.context.logger.error({ failures: failures.length }, 'chat event publish failed');
  }

  private listEvent(chatId: string, frame: ServerFrame, detach: boolean): ChatListEvent {
    return { kind: 'chat_list', chat_id: chatId, frame: JSON.stringify(frame), detach };
  }

  /** After a create or update: added users get chat_added, kept ones chat_updated, removed ones chat_removed. */
  async changed(chatId: string, before: readonly string[], after: readonly string[]): Promise<void> {
    try {
      const chat = await this.render(chatId);
      const beforeSet = new Set(before);
      const afterSet = new Set(after);
      const removed = before.filter((id) => !afterSet.has(id));
      if (removed.length > 0) {
        await this.send(removed, this.listEvent(chatId, { type: 'chat_removed', chat_id: chatId }, true));
      }
      if (chat === undefined) return;
      const added = after.filter((id) => !beforeSet.has(id));
      // Joining a chat (creating it included) follows its drops (docs/CONTRACTS.md, Drops); leaving
      // keeps the follow.
      if (added.length > 0) await this.context.store.drops.follow(chatId, added, formatTimestamp(this.context.config.now()));
      const kept = after.filter((id) => beforeSet.has(id));
      if (added.length > 0) await this.send(added, this.listEvent(chatId, { type: 'chat_added', chat: chat as unknown as WireChat }, false));
      if (kept.length > 0) await this.send(kept, this.listEvent(chatId, { type: 'chat_updated', chat: chat as unknown as WireChat }, false));
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

}
