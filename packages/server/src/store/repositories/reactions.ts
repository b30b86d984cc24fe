import type { Kysely } from 'kysely';
import type { ReactionSummary } from '@confab/client/protocol';
import type { ConfabDatabase } from '../database';
import type { Database } from '../schema';

export interface ReactionChange {
  messageId: string;
  userId: string;
  emoji: string;
  /** True adds the reaction, false removes it; neither toggles, so repeating one changes nothing. */
  on: boolean;
  at: string;
  /** The most distinct emoji one message may carry. */
  distinctMaximum: number;
}

export type ReactionChangeResult =
  | { outcome: 'missing' }
  | { outcome: 'too_many' }
  | { outcome: 'changed' | 'unchanged'; chat: string; version: number; updated: string; reactions: ReactionSummary[] };

interface ReactionRow {
  message: string;
  emoji: string;
  user: string;
  username: string;
  name: string;
}

/**
 * Reactions (migration 014). A change runs in one transaction holding the message row (FOR UPDATE
 * on PostgreSQL; SQLite's one connection runs transactions one at a time), so changes of one
 * message are decided one after another on every instance: the version grows by one per change and
 * each summary is exactly the reactions after its change.
 */
export class ReactionsRepository {
  private readonly db: Kysely<Database>;

  constructor(private readonly database: ConfabDatabase) {
    this.db = database.db;
  }

  async change(change: ReactionChange): Promise<ReactionChangeResult> {
    return this.db.transaction().execute(async (transaction) => {
      const query = transaction.selectFrom('messages').select(['chat', 'deleted_at', 'reactions_version', 'updated']).where('id', '=', change.messageId);
      const message = await (this.database.dialect === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
      if (message === undefined || message.deleted_at !== null) return { outcome: 'missing' } as const;
      const mine = (builder: typeof transaction) =>
        builder.deleteFrom('message_reactions').where('message', '=', change.messageId).where('user', '=', change.userId).where('emoji', '=', change.emoji);
      let changed: boolean;
      if (change.on) {
        const emoji = await transaction.selectFrom('message_reactions').select(['emoji', 'user']).where('message', '=', change.messageId).execute();
        if (emoji.some((row) => row.emoji === change.emoji && row.user === change.userId)) {
          changed = false;
        } else {
          const distinct = new Set(emoji.map((row) => row.emoji));
          if (!distinct.has(change.emoji) && distinct.size >= change.distinctMaximum) return { outcome: 'too_many' } as const;
          await transaction
            .insertInto('message_reactions')
            .values({ message: change.messageId, chat: message.chat, user: change.userId, emoji: change.emoji, created: change.at })
            .execute();
          changed = true;
        }
      } else {
        changed = Number((await mine(transaction).executeTakeFirst()).numDeletedRows) > 0;
      }
      let version = Number(message.reactions_version);
      let updated = message.updated;
      if (changed) {
        version += 1;
        // Never backwards: catching up asks for `updated >` the latest change a client saw.
        updated = change.at > message.updated ? change.at : message.updated;
        await transaction.updateTable('messages').set({ reactions_version: version, updated }).where('id', '=', change.messageId).execute();
      }
      const reactions = summarise(await this.rowsOf(transaction, [change.messageId])).get(change.messageId) ?? [];
      return { outcome: changed ? 'changed' : 'unchanged', chat: message.chat, version, updated, reactions };
    });
  }

  /** The summaries of these messages (those without reactions are absent), in one query. */
  async summaries(messageIds: readonly string[]): Promise<Map<string, ReactionSummary[]>> {
    if (messageIds.length === 0) return new Map();
    return summarise(await this.rowsOf(this.db, messageIds));
  }

  private async rowsOf(db: Kysely<Database>, messageIds: readonly string[]): Promise<ReactionRow[]> {
    return db
      .selectFrom('message_reactions')
      .innerJoin('users', 'users.id', 'message_reactions.user')
      .select(['message_reactions.message as message', 'message_reactions.emoji as emoji', 'message_reactions.user as user', 'users.username as username', 'users.name as name'])
      .where('message_reactions.message', 'in', messageIds)
      .orderBy('message_reactions.created')
      .orderBy('message_reactions.user')
      .execute();
  }
}

/** Groups rows (oldest first) by message, then by emoji in the order each emoji first appeared. */
function summarise(rows: readonly ReactionRow[]): Map<string, ReactionSummary[]> {
  const byMessage = new Map<string, Map<string, ReactionSummary>>();
  for (const row of rows) {
    let byEmoji = byMessage.get(row.message);
    if (byEmoji === undefined) byMessage.set(row.message, (byEmoji = new Map()));
    let summary = byEmoji.get(row.emoji);
    if (summary === undefined) byEmoji.set(row.emoji, (summary = { emoji: row.emoji, count: 0, users: [] }));
    summary.count += 1;
    summary.users.push({ id: row.user, username: row.username, name: row.name });
  }
  return new Map([...byMessage].map(([message, byEmoji]) => [message, [...byEmoji.values()]]));
}
