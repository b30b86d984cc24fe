import type { Kysely } from 'kysely';
import type { Database } from '../schema';

/** A person with mentions in one chat unread since before the cutoff and not mailed yet. */
export interface MissedMentionBatch {
  user_id: string;
  chat_id: string;
  /** The chat_reads row's mailed_through_seq when read: the claim only succeeds if it is unchanged. */
  mailed_through_seq: number;
  /** The newest such mention: the claim moves mailed_through_seq here. */
  through_seq: number;
  /** The sweep's window start: older mentions below through_seq are passed over, not mailed. */
  since: string;
}

/** One mentioning message as the mail shows it. */
export interface MissedMentionMessage {
  id: string;
  seq: number;
  content_encrypted: string;
  created: string;
  author_name: string;
  author_username: string;
}

/**
 * The missed-mention mail sweep's queries (migrations/017_notifications.ts): what is due, the
 * atomic claim, and the messages of a claimed batch. Who may be mailed is decided here in SQL
 * (a participant, a person with mails on and a real address); the session check and the mail are
 * the service's (services/missedMentions.ts).
 */
export class MissedMentionsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Unread, unmailed, undeleted mentions stored after `since` and at or before `cutoff`, one batch
   * per person and chat. The window walks message_mentions' `created` index, so a sweep reads the
   * mentions of that window only, however many were ever made.
   */
  async due(options: { since: string; cutoff: string; agentTypes: readonly string[]; excludedEmailDomain: string; limit: number }): Promise<MissedMentionBatch[]> {
    const rows = await this.db
      .selectFrom('message_mentions as mention')
      .innerJoin('chat_reads as reads', (join) => join.onRef('reads.chat_id', '=', 'mention.chat_id').onRef('reads.user_id', '=', 'mention.user_id'))
      .innerJoin('chat_participants as participant', (join) =>
        join.onRef('participant.chat_id', '=', 'mention.chat_id').onRef('participant.user_id', '=', 'mention.user_id'),
      )
      .innerJoin('messages as message', (join) => join.onRef('message.chat', '=', 'mention.chat_id').onRef('message.seq', '=', 'mention.seq'))
      .innerJoin('users as person', 'person.id', 'mention.user_id')
      .select((eb) => ['mention.user_id as user_id', 'mention.chat_id as chat_id', 'reads.mailed_through_seq as mailed_through_seq', eb.fn.max('mention.seq').as('through_seq')])
      .whereRef('mention.seq', '>', 'reads.last_read_seq')
      .whereRef('mention.seq', '>', 'reads.mailed_through_seq')
      .where('mention.created', '>', options.since)
      .where('mention.created', '<=', options.cutoff)
      .where('message.deleted_at', 'is', null)
      .where('person.email_notifications', '=', 1)
      .where('person.type', 'not in', [...options.agentTypes])
      .where('person.email', '!=', '')
      .where('person.email', 'not like', `%@${options.excludedEmailDomain}`)
      .groupBy(['mention.user_id', 'mention.chat_id', 'reads.mailed_through_seq'])
      .limit(options.limit)
      .execute();
    return rows.map((row) => ({
      user_id: row.user_id, chat_id: row.chat_id, mailed_through_seq: Number(row.mailed_through_seq), through_seq: Number(row.through_seq), since: options.since,
    }));
  }

  /**
   * Claims a batch for this instance: moves mailed_through_seq to `through_seq` only if nobody
   * moved it since `due` read it. One UPDATE, so of two instances sweeping at once one wins.
   */
  async claim(batch: MissedMentionBatch): Promise<boolean> {
    const result = await this.db
      .updateTable('chat_reads')
      .set({ mailed_through_seq: batch.through_seq })
      .where('chat_id', '=', batch.chat_id)
      .where('user_id', '=', batch.user_id)
      .where('mailed_through_seq', '=', batch.mailed_through_seq)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Gives a claimed batch back (its mail failed), unless something moved it since. */
  async release(batch: MissedMentionBatch): Promise<void> {
    await this.db
      .updateTable('chat_reads')
      .set({ mailed_through_seq: batch.mailed_through_seq })
      .where('chat_id', '=', batch.chat_id)
      .where('user_id', '=', batch.user_id)
      .where('mailed_through_seq', '=', batch.through_seq)
      .execute();
  }

  /** The claimed batch's messages still unread and not deleted, oldest first. */
  async messagesOf(batch: MissedMentionBatch): Promise<MissedMentionMessage[]> {
    const rows = await this.db
      .selectFrom('message_mentions as mention')
      .innerJoin('chat_reads as reads', (join) => join.onRef('reads.chat_id', '=', 'mention.chat_id').onRef('reads.user_id', '=', 'mention.user_id'))
      .innerJoin('messages as message', (join) => join.onRef('message.chat', '=', 'mention.chat_id').onRef('message.seq', '=', 'mention.seq'))
      .innerJoin('users as author', 'author.id', 'message.author')
      .select(['message.id as id', 'message.seq as seq', 'message.content_encrypted as content_encrypted', 'message.created as created', 'author.name as author_name', 'author.username as author_username'])
      .where('mention.user_id', '=', batch.user_id)
      .where('mention.chat_id', '=', batch.chat_id)
      .where('mention.seq', '>', batch.mailed_through_seq)
      .where('mention.seq', '<=', batch.through_seq)
      .where('mention.created', '>', batch.since)
      .whereRef('mention.seq', '>', 'reads.last_read_seq')
      .where('message.deleted_at', 'is', null)
      .orderBy('message.seq')
      .execute();
    return rows.map((row) => ({ ...row, seq: Number(row.seq) }));
  }
}
