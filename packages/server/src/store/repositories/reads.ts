import { sql, type Kysely, type Transaction } from 'kysely';
import type { NotifyLevel } from '@confab/client/protocol';
import { compiledOnce } from '../compiledOnce';
import type { Database } from '../schema';

/** One person's read state of one chat, as counted here (the wire's ChatReadState without the chat id). */
export interface ReadState {
  last_read_seq: number;
  unread_count: number;
  mention_count: number;
  muted: boolean;
  notify_level: NotifyLevel;
}

type Executor = Kysely<Database> | Transaction<Database>;

/**
 * Starts people reading a chat at its newest message: called in the transaction that makes them
 * participants, so the history they join is not unread. Someone who left and comes back starts
 * over at the newest message too (their mute is kept).
 */
export async function startReading(executor: Executor, chatId: string, userIds: readonly string[], updated: string): Promise<void> {
  if (userIds.length === 0) return;
  const chat = await executor.selectFrom('chats').select('last_seq').where('id', '=', chatId).executeTakeFirst();
  const lastSeq = Number(chat?.last_seq ?? 0);
  await executor
    .insertInto('chat_reads')
    .values(userIds.map((userId) => ({ chat_id: chatId, user_id: userId, last_read_seq: lastSeq, muted: 0, updated })))
    .onConflict((conflict) => conflict.columns(['chat_id', 'user_id']).doUpdateSet({ last_read_seq: lastSeq, updated }))
    .execute();
}

/**
 * Moves a person's position forward to `seq` (capped at the chat's newest; never back), compiled
 * once: a query of its own for each repository that runs it (on the send path, the messages
 * repository runs it in the message's transaction).
 */
export function markReadQuery() {
  return compiledOnce((chatId: string, userId: string, seq: number, updated: string) =>
    sql`insert into chat_reads (chat_id, user_id, last_read_seq, muted, updated)
      select id, cast(${userId} as text), capped, 0, cast(${updated} as text)
      from (select id, case when last_seq < cast(${seq} as integer) then last_seq else cast(${seq} as integer) end as capped from chats where id = ${chatId}) as target where true
      on conflict (chat_id, user_id) do update set
        last_read_seq = case when excluded.last_read_seq > chat_reads.last_read_seq then excluded.last_read_seq else chat_reads.last_read_seq end,
        updated = excluded.updated`,
  );
}

/**
 * Read positions, mutes and mentions (migrations/012_chat_reads.ts). Unread is the chat's
 * `last_seq` minus the position; a person without a row has read everything.
 */
export class ReadsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  // Both run after every send (compiledOnce): the author's position moves, their sessions get the state.
  private readonly oneState = compiledOnce((userId: string, chatId: string) =>
    this.db
      .selectFrom('chats')
      .leftJoin('chat_reads', (join) => join.onRef('chat_reads.chat_id', '=', 'chats.id').on('chat_reads.user_id', '=', userId))
      .select((eb) => [
        'chats.last_seq as last_seq',
        'chat_reads.last_read_seq as last_read_seq',
        'chat_reads.muted as muted',
        'chat_reads.notify_all as notify_all',
        // No chat_reads row: the comparison is null and nothing counts, as in statesOf's inner join.
        eb
          .selectFrom('message_mentions')
          .select((inner) => inner.fn.countAll<number>().as('count'))
          .where('message_mentions.user_id', '=', userId)
          .whereRef('message_mentions.chat_id', '=', 'chats.id')
          .whereRef('message_mentions.seq', '>', 'chat_reads.last_read_seq')
          .as('mentions'),
      ])
      .where('chats.id', '=', chatId),
  );
  private readonly readUpTo = markReadQuery();

  /** The user's state of each of `chatIds` (the ones that exist), in two queries whatever their number. */
  async statesOf(userId: string, chatIds: readonly string[]): Promise<Map<string, ReadState>> {
    const states = new Map<string, ReadState>();
    if (chatIds.length === 0) return states;
    const ids = [...chatIds];
    const [positions, mentions] = await Promise.all([
      this.db
        .selectFrom('chats')
        .leftJoin('chat_reads', (join) => join.onRef('chat_reads.chat_id', '=', 'chats.id').on('chat_reads.user_id', '=', userId))
        .select(['chats.id as chat_id', 'chats.last_seq as last_seq', 'chat_reads.last_read_seq as last_read_seq', 'chat_reads.muted as muted', 'chat_reads.notify_all as notify_all'])
        .where('chats.id', 'in', ids)
        .execute(),
      this.db
        .selectFrom('message_mentions')
        .innerJoin('chat_reads', (join) => join.onRef('chat_reads.chat_id', '=', 'message_mentions.chat_id').onRef('chat_reads.user_id', '=', 'message_mentions.user_id'))
        .select(['message_mentions.chat_id as chat_id', (eb) => eb.fn.countAll<number>().as('mentions')])
        .where('message_mentions.user_id', '=', userId)
        .where('message_mentions.chat_id', 'in', ids)
        .whereRef('message_mentions.seq', '>', 'chat_reads.last_read_seq')
        .groupBy('message_mentions.chat_id')
        .execute(),
    ]);
    const mentionCounts = new Map(mentions.map((row) => [row.chat_id, Number(row.mentions)]));
    for (const row of positions) states.set(row.chat_id, readState(row, mentionCounts.get(row.chat_id) ?? 0));
    return states;
  }

  /** One chat's state, as statesOf counts it, in one query. */
  async stateOf(userId: string, chatId: string): Promise<ReadState | undefined> {
    const [row] = (await this.oneState.execute(this.db, userId, chatId)).rows;
    return row === undefined ? undefined : readState(row, Number(row.mentions ?? 0));
  }

  /** Moves the position forward to `seq` (capped at the chat's newest; never back). */
  async markRead(chatId: string, userId: string, seq: number, updated: string): Promise<void> {
    await this.readUpTo.execute(this.db, chatId, userId, seq, updated);
  }

  /**
   * A system line at `seq` badges nobody who had read the chat up to it: their position moves onto
   * it. Whoever had unread messages already sees it counted among them.
   */
  async advanceCaughtUp(chatId: string, seq: number, updated: string): Promise<void> {
    await this.db
      .updateTable('chat_reads')
      .set({ last_read_seq: seq, updated })
      .where('chat_id', '=', chatId)
      .where('last_read_seq', '=', seq - 1)
      .execute();
  }

  async setMuted(chatId: string, userId: string, muted: boolean, updated: string): Promise<void> {
    await sql`insert into chat_reads (chat_id, user_id, last_read_seq, muted, updated)
      select id, cast(${userId} as text), last_seq, cast(${muted ? 1 : 0} as integer), cast(${updated} as text) from chats where id = ${chatId}
      on conflict (chat_id, user_id) do update set muted = excluded.muted, updated = excluded.updated`.execute(this.db);
  }

  async setNotifyAll(chatId: string, userId: string, notifyAll: boolean, updated: string): Promise<void> {
    await sql`insert into chat_reads (chat_id, user_id, last_read_seq, muted, notify_all, updated)
      select id, cast(${userId} as text), last_seq, 0, cast(${notifyAll ? 1 : 0} as integer), cast(${updated} as text) from chats where id = ${chatId}
      on conflict (chat_id, user_id) do update set notify_all = excluded.notify_all, updated = excluded.updated`.execute(this.db);
  }

  /** Notes who a stored message mentions (participants only, the caller's choice). */
  async addMentions(chatId: string, seq: number, created: string, userIds: readonly string[]): Promise<void> {
    if (userIds.length === 0) return;
    await this.db
      .insertInto('message_mentions')
      .values(userIds.map((userId) => ({ user_id: userId, chat_id: chatId, seq, created })))
      .onConflict((conflict) => conflict.doNothing())
      .execute();
  }
}

/** A chat's row joined with the person's chat_reads row (absent: they have read everything). */
function readState(
  row: { last_seq: number | string; last_read_seq: number | string | null; muted: number | null; notify_all: number | null },
  mentionCount: number,
): ReadState {
  const lastSeq = Number(row.last_seq);
  const lastRead = Math.min(lastSeq, row.last_read_seq === null ? lastSeq : Number(row.last_read_seq));
  return {
    last_read_seq: lastRead,
    unread_count: lastSeq - lastRead,
    mention_count: mentionCount,
    muted: Number(row.muted ?? 0) === 1,
    notify_level: Number(row.notify_all ?? 0) === 1 ? 'all' : 'mentions',
  };
}
