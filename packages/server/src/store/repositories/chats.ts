import type { Insertable, Kysely, Selectable, Transaction, Updateable } from 'kysely';
import { compiledOnce } from '../compiledOnce';
import type { ChatsTable, Database } from '../schema';
import { startReading } from './reads';

export type ChatRow = Selectable<ChatsTable>;

export interface ChatMembers {
  participants: string[];
  admins: string[];
}

type MembershipTable = 'chat_participants' | 'chat_admins';

async function replaceMembers(
  transaction: Transaction<Database>,
  table: MembershipTable,
  chatId: string,
  userIds: readonly string[],
  updated: string,
): Promise<void> {
  if (table === 'chat_participants') {
    // New participants start reading at the chat's newest message.
    const before = await transaction.selectFrom(table).select('user_id').where('chat_id', '=', chatId).execute();
    const known = new Set(before.map((row) => row.user_id));
    await startReading(transaction, chatId, userIds.filter((userId) => !known.has(userId)), updated);
  }
  await transaction.deleteFrom(table).where('chat_id', '=', chatId).execute();
  if (userIds.length === 0) return;
  await transaction
    .insertInto(table)
    .values(userIds.map((userId, position) => ({ chat_id: chatId, user_id: userId, position })))
    .execute();
}

export class ChatsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  // Asked on every send (compiledOnce): the router reads the chat, the sender's membership is checked.
  private readonly byId = compiledOnce((id: string) => this.db.selectFrom('chats').selectAll().where('id', '=', id));
  private readonly participant = compiledOnce((chatId: string, userId: string) =>
    this.db.selectFrom('chat_participants').select('chat_id').where('chat_id', '=', chatId).where('user_id', '=', userId),
  );
  private readonly toTell = compiledOnce((chatId: string) =>
    this.db
      .selectFrom('chat_participants')
      .innerJoin('users', 'users.id', 'chat_participants.user_id')
      .leftJoin('chat_reads', (join) => join.onRef('chat_reads.chat_id', '=', 'chat_participants.chat_id').onRef('chat_reads.user_id', '=', 'chat_participants.user_id'))
      .select(['chat_participants.user_id as user_id', 'users.username as username', 'users.type as type', 'chat_reads.muted as muted', 'chat_reads.notify_all as notify_all'])
      .where('chat_participants.chat_id', '=', chatId),
  );

  async findById(id: string): Promise<ChatRow | undefined> {
    return (await this.byId.execute(this.db, id)).rows[0];
  }

  async insert(row: Insertable<ChatsTable>, members: ChatMembers): Promise<void> {
    await this.db.transaction().execute(async (transaction) => {
      await transaction.insertInto('chats').values(row).execute();
      await replaceMembers(transaction, 'chat_participants', row.id, members.participants, row.created);
      await replaceMembers(transaction, 'chat_admins', row.id, members.admins, row.created);
    });
  }

  async update(id: string, changes: Updateable<ChatsTable>, members: Partial<ChatMembers>): Promise<void> {
    await this.db.transaction().execute(async (transaction) => {
      await transaction.updateTable('chats').set(changes).where('id', '=', id).execute();
      const updated = changes.updated ?? new Date().toISOString().replace('T', ' ');
      if (members.participants !== undefined) {
        await replaceMembers(transaction, 'chat_participants', id, members.participants, updated);
      }
      if (members.admins !== undefined) await replaceMembers(transaction, 'chat_admins', id, members.admins, updated);
    });
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('chats').where('id', '=', id).execute();
  }

  async touch(id: string, updated: string): Promise<void> {
    await this.db.updateTable('chats').set({ updated }).where('id', '=', id).execute();
  }

  /** The chat whose inbox address is `<emailAddress>@<mail domain>`. */
  async findByEmailAddress(emailAddress: string): Promise<ChatRow | undefined> {
    return this.db.selectFrom('chats').selectAll().where('email_address', '=', emailAddress).executeTakeFirst();
  }

  /** A user's personal inbox chat (is_inbox, created by them), if mail has made one. */
  async findInboxOf(userId: string): Promise<ChatRow | undefined> {
    return this.db.selectFrom('chats').selectAll().where('creator', '=', userId).where('is_inbox', '=', 1).orderBy('created').executeTakeFirst();
  }

  async emailAddressTaken(emailAddress: string): Promise<boolean> {
    const row = await this.db.selectFrom('chats').select('id').where('email_address', '=', emailAddress).executeTakeFirst();
    return row !== undefined;
  }

  /** Participants and admins of each chat, in their stored order. */
  async membersOf(chatIds: readonly string[]): Promise<Map<string, ChatMembers>> {
    const members = new Map<string, ChatMembers>(chatIds.map((id) => [id, { participants: [], admins: [] }]));
    if (chatIds.length === 0) return members;
    const ids = [...chatIds];
    const [participants, admins] = await Promise.all([
      this.db.selectFrom('chat_participants').selectAll().where('chat_id', 'in', ids).orderBy('position').execute(),
      this.db.selectFrom('chat_admins').selectAll().where('chat_id', 'in', ids).orderBy('position').execute(),
    ]);
    for (const row of participants) members.get(row.chat_id)?.participants.push(row.user_id);
    for (const row of admins) members.get(row.chat_id)?.admins.push(row.user_id);
    return members;
  }

  /** Seq of the chat's latest message (0 for none); undefined when the chat does not exist. */
  async lastSeq(id: string): Promise<number | undefined> {
    const row = await this.db.selectFrom('chats').select('last_seq').where('id', '=', id).executeTakeFirst();
    return row === undefined ? undefined : Number(row.last_seq);
  }

  /** The chat's participants with their usernames and user types (who a message mentions, who is told of it). */
  async participantsWithNames(chatId: string): Promise<Array<{ user_id: string; username: string; type: string }>> {
    return this.db
      .selectFrom('chat_participants')
      .innerJoin('users', 'users.id', 'chat_participants.user_id')
      .select(['chat_participants.user_id as user_id', 'users.username as username', 'users.type as type'])
      .where('chat_participants.chat_id', '=', chatId)
      .execute();
  }

  /**
   * The chat's participants with what a new message's frames need: usernames and user types (whom
   * it mentions, who is told) and each one's mute and notification level (people without a
   * chat_reads row have the defaults), in one query.
   */
  async participantsToTell(chatId: string): Promise<Array<{ user_id: string; username: string; type: string; muted: boolean; notifyAll: boolean }>> {
    const rows = (await this.toTell.execute(this.db, chatId)).rows;
    return rows.map((row) => ({ user_id: row.user_id, username: row.username, type: row.type, muted: Number(row.muted ?? 0) === 1, notifyAll: Number(row.notify_all ?? 0) === 1 }));
  }

  /** Everyone who shares at least one chat with the user (the user too, when in any chat), with their user types: who hears of their presence. */
  async peopleSharingChatsWith(userId: string): Promise<Array<{ user_id: string; type: string }>> {
    return this.db
      .selectFrom('chat_participants as others')
      .innerJoin('chat_participants as mine', 'mine.chat_id', 'others.chat_id')
      .innerJoin('users', 'users.id', 'others.user_id')
      .select(['others.user_id as user_id', 'users.type as type'])
      .distinct()
      .where('mine.user_id', '=', userId)
      .execute();
  }

  async isParticipant(chatId: string, userId: string): Promise<boolean> {
    return (await this.participant.execute(this.db, chatId, userId)).rows.length > 0;
  }

  /** The chat's admins, in one query. */
  async adminsOf(chatId: string): Promise<Set<string>> {
    const rows = await this.db.selectFrom('chat_admins').select('user_id').where('chat_id', '=', chatId).execute();
    return new Set(rows.map((row) => row.user_id));
  }

  /** Which of `chatIds` the user is an admin of, in one query. */
  async adminChatIds(userId: string, chatIds: readonly string[]): Promise<Set<string>> {
    if (chatIds.length === 0) return new Set();
    const rows = await this.db.selectFrom('chat_admins').select('chat_id').where('user_id', '=', userId).where('chat_id', 'in', [...chatIds]).execute();
    return new Set(rows.map((row) => row.chat_id));
  }

  async isAdmin(chatId: string, userId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('chat_admins')
      .select('chat_id')
      .where('chat_id', '=', chatId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * Takes a participant out of the chat (and out of its admins) in one transaction that first
   * writes the chat row: concurrent leaves of one chat wait for each other (a row lock on
   * PostgreSQL, the one writer on SQLite), so `check` always sees every earlier leave. `check`
   * gets the members before the change, with each participant's user type, and throws to refuse:
   * then nothing changes. Answers the members before the change; undefined when the chat is gone.
   */
  async removeParticipant(
    chatId: string,
    userId: string,
    updated: string,
    check: (members: ChatMembers & { types: ReadonlyMap<string, string> }) => void,
  ): Promise<ChatMembers | undefined> {
    return this.db.transaction().execute(async (transaction) => {
      const touched = await transaction.updateTable('chats').set({ updated }).where('id', '=', chatId).executeTakeFirst();
      if (Number(touched.numUpdatedRows) !== 1) return undefined;
      const participants = await transaction
        .selectFrom('chat_participants')
        .innerJoin('users', 'users.id', 'chat_participants.user_id')
        .select(['chat_participants.user_id as user_id', 'users.type as type'])
        .where('chat_participants.chat_id', '=', chatId)
        .orderBy('chat_participants.position')
        .execute();
      const admins = await transaction.selectFrom('chat_admins').select('user_id').where('chat_id', '=', chatId).orderBy('position').execute();
      const before: ChatMembers = { participants: participants.map((row) => row.user_id), admins: admins.map((row) => row.user_id) };
      check({ ...before, types: new Map(participants.map((row) => [row.user_id, row.type])) });
      await transaction.deleteFrom('chat_admins').where('chat_id', '=', chatId).where('user_id', '=', userId).execute();
      await transaction.deleteFrom('chat_participants').where('chat_id', '=', chatId).where('user_id', '=', userId).execute();
      return before;
    });
  }

  /** Adds a participant at the end of the list; false when they already were one. */
  async addParticipant(chatId: string, userId: string, updated: string): Promise<boolean> {
    return this.db.transaction().execute(async (transaction) => {
      const last = await transaction
        .selectFrom('chat_participants')
        .select((eb) => eb.fn.max('position').as('position'))
        .where('chat_id', '=', chatId)
        .executeTakeFirst();
      const position = last?.position === null || last?.position === undefined ? 0 : Number(last.position) + 1;
      const result = await transaction
        .insertInto('chat_participants')
        .values({ chat_id: chatId, user_id: userId, position })
        .onConflict((conflict) => conflict.columns(['chat_id', 'user_id']).doNothing())
        .executeTakeFirst();
      const added = Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
      if (added) {
        await transaction.updateTable('chats').set({ updated }).where('id', '=', chatId).execute();
        await startReading(transaction, chatId, [userId], updated);
      }
      return added;
    });
  }
}
