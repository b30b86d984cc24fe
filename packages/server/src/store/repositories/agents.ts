import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import type { AgentMentionsTable, AgentStreamsTable, Database, UsersTable } from '../schema';
import type { UserRow } from './users';

export type AgentMentionRow = Selectable<AgentMentionsTable>;
export type AgentStreamRow = Selectable<AgentStreamsTable>;

export const agentUserTypes = ['developer-agent', 'confab-agent'] as const;

/**
 * Agents are rows of `users`; their mentions (queue and invocation grants) and growing streams
 * have tables of their own. Every query of the agent runtime lives here.
 */
export class AgentsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  // ---- agents ----

  async findAgent(id: string): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).where('type', 'in', [...agentUserTypes]).executeTakeFirst();
  }

  async findByKeyHash(keyHash: string): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('api_key_hash', '=', keyHash).where('type', '=', 'developer-agent').executeTakeFirst();
  }

  /** Agents among these lower-cased usernames. */
  async findByUsernames(usernames: readonly string[]): Promise<UserRow[]> {
    if (usernames.length === 0) return [];
    return this.db
      .selectFrom('users')
      .selectAll()
      .where(sql`lower(username)`, 'in', [...usernames])
      .where('type', 'in', [...agentUserTypes])
      .execute();
  }

  /** My developer agents, then every confab agent, each by name. */
  async listMine(userId: string): Promise<UserRow[]> {
    return this.db
      .selectFrom('users')
      .selectAll()
      .where((builder) => builder.or([builder.and([builder('type', '=', 'developer-agent'), builder('created_by', '=', userId)]), builder('type', '=', 'confab-agent')]))
      .orderBy(sql`case when type = 'developer-agent' then 0 else 1 end`)
      .orderBy(sql`lower(name)`)
      .execute();
  }

  async listHosted(): Promise<UserRow[]> {
    return this.db.selectFrom('users').selectAll().where('type', '=', 'confab-agent').orderBy(sql`lower(name)`).execute();
  }

  /**
   * Site-wide agents whose name, username or type contains the text (case-insensitive), of the
   * given types, by name; for no text every one of them, the Confab agents first.
   */
  async search(text: string, types: readonly string[], limit: number): Promise<UserRow[]> {
    if (types.length === 0) return [];
    const pattern = `%${text.toLowerCase().replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
    return this.db
      .selectFrom('users')
      .selectAll()
      .where('type', 'in', [...types])
      .where((builder) => builder.or([builder('site_wide_available', 'is', null), builder('site_wide_available', '<>', 0)]))
      .where((builder) =>
        builder.or([
          builder(sql`lower(name)`, 'like', sql`${pattern} escape '\\'`),
          builder(sql`lower(username)`, 'like', sql`${pattern} escape '\\'`),
          builder(sql`lower(type)`, 'like', sql`${pattern} escape '\\'`),
        ]),
      )
      .$if(text === '', (query) => query.orderBy(sql`case when type = 'confab-agent' then 0 else 1 end`))
      .orderBy(sql`lower(name)`)
      .limit(limit)
      .execute();
  }

  /**
   * Inserts a developer agent unless its creator already has `maximum`; false then, and nothing is
   * written. The creator's row is written first (to itself), so one person's concurrent creations
   * wait for each other (a row lock on PostgreSQL, the one writer on SQLite) and each count sees
   * every earlier insert.
   */
  async insertWithinAllowance(row: Insertable<UsersTable> & { created_by: string }, maximum: number): Promise<boolean> {
    return this.db.transaction().execute(async (transaction) => {
      await transaction.updateTable('users').set((builder) => ({ updated: builder.ref('updated') })).where('id', '=', row.created_by).execute();
      if ((await countOwned(transaction, row.created_by)) >= maximum) return false;
      await transaction.insertInto('users').values(row).execute();
      return true;
    });
  }

  /** How many developer agents `creatorId` has. */
  async countOwned(creatorId: string): Promise<number> {
    return countOwned(this.db, creatorId);
  }

  /**
   * Whether a person (not an agent) is called `name`: their display name or username, ignoring
   * case and surrounding spaces. Both lower-casings are asked for: SQLite's lower() folds ASCII
   * letters only, PostgreSQL's every letter.
   */
  async isPersonNamed(name: string): Promise<boolean> {
    const trimmed = name.trim();
    const lowered = [...new Set([trimmed.toLowerCase(), trimmed.replace(/[A-Z]+/g, (letters) => letters.toLowerCase())])];
    const row = await this.db
      .selectFrom('users')
      .select('id')
      .where('type', 'not in', [...agentUserTypes])
      .where((builder) => builder.or([builder(sql`lower(trim(name))`, 'in', lowered), builder(sql`lower(username)`, 'in', lowered)]))
      .executeTakeFirst();
    return row !== undefined;
  }

  async setKeyHash(agentId: string, keyHash: string, updated: string): Promise<void> {
    await this.db.updateTable('users').set({ api_key_hash: keyHash, updated }).where('id', '=', agentId).execute();
  }

  /** Sets the dev room once: false when another connection set it first. */
  async claimDevRoom(agentId: string, chatId: string): Promise<boolean> {
    const result = await this.db.updateTable('users').set({ dev_room_id: chatId }).where('id', '=', agentId).where('dev_room_id', 'is', null).executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  // ---- mentions: queue and invocation grants ----

  async insertMention(row: AgentMentionRow): Promise<void> {
    await this.db.insertInto('agent_mentions').values(row).execute();
  }

  async findMention(id: string): Promise<AgentMentionRow | undefined> {
    return this.db.selectFrom('agent_mentions').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Unacknowledged, unexpired mentions of an agent, oldest first. */
  async pendingMentions(agentId: string, now: string, limit: number): Promise<AgentMentionRow[]> {
    return this.db
      .selectFrom('agent_mentions')
      .selectAll()
      .where('agent', '=', agentId)
      .where('acked_at', 'is', null)
      .where('expires', '>', now)
      .orderBy('created')
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  async ackMention(id: string, agentId: string, now: string): Promise<boolean> {
    const result = await this.db.updateTable('agent_mentions').set({ acked_at: now }).where('id', '=', id).where('agent', '=', agentId).where('acked_at', 'is', null).executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** The highest hop among the agent's mentions in the chat created at or after `since`; undefined when none. */
  async deepestInvocationHop(agentId: string, chatId: string, since: string): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('agent_mentions')
      .select((builder) => builder.fn.max('hop').as('hop'))
      .where('agent', '=', agentId)
      .where('chat', '=', chatId)
      .where('created', '>=', since)
      .executeTakeFirst();
    return row?.hop === null || row?.hop === undefined ? undefined : Number(row.hop);
  }

  /** The newest invocation of the agent in the chat since `since` (a grant), if any. */
  async latestInvocation(agentId: string, chatId: string, since: string): Promise<AgentMentionRow | undefined> {
    return this.db
      .selectFrom('agent_mentions')
      .selectAll()
      .where('agent', '=', agentId)
      .where('chat', '=', chatId)
      .where('created', '>', since)
      .orderBy('created', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  /** Forgets mentions that expired long ago (the grant needs 10 minutes, the queue its own window). */
  async deleteMentionsBefore(before: string): Promise<void> {
    await this.db.deleteFrom('agent_mentions').where('expires', '<', before).execute();
  }

  // ---- growing streams ----

  async insertStream(row: AgentStreamRow): Promise<void> {
    await this.db.insertInto('agent_streams').values(row).execute();
  }

  async findStream(agentId: string, streamKey: string): Promise<AgentStreamRow | undefined> {
    return this.db.selectFrom('agent_streams').selectAll().where('agent', '=', agentId).where('stream_key', '=', streamKey).executeTakeFirst();
  }

  async openStreams(chatId: string): Promise<AgentStreamRow[]> {
    return this.db.selectFrom('agent_streams').selectAll().where('chat', '=', chatId).orderBy('started').execute();
  }

  /** Every stream the agent has open, in any chat (closed as interrupted when it goes offline). */
  async streamsOfAgent(agentId: string): Promise<AgentStreamRow[]> {
    return this.db.selectFrom('agent_streams').selectAll().where('agent', '=', agentId).orderBy('started').execute();
  }

  async updateStream(id: string, textEncrypted: string, length: number, updated: string): Promise<void> {
    await this.db.updateTable('agent_streams').set({ text_encrypted: textEncrypted, length, updated }).where('id', '=', id).execute();
  }

  /** Removes the stream; true for the one caller that removed it (an end racing the idle sweep). */
  async claimStream(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('agent_streams').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }

  async idleStreams(updatedBefore: string, limit: number): Promise<AgentStreamRow[]> {
    return this.db.selectFrom('agent_streams').selectAll().where('updated', '<', updatedBefore).orderBy('updated').limit(limit).execute();
  }
}

function countOwned(db: Kysely<Database>, creatorId: string): Promise<number> {
  return db
    .selectFrom('users')
    .select((builder) => builder.fn.countAll().as('count'))
    .where('type', '=', 'developer-agent')
    .where('created_by', '=', creatorId)
    .executeTakeFirst()
    .then((row) => Number(row?.count ?? 0));
}
