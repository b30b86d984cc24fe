import type { Kysely } from 'kysely';
import type { ConfabDatabase } from '../database';

/** The `inbound_mails` table (migration 010): a received mail's thread details, encrypted. */
interface InboundMailsTable {
  message: string;
  chat: string;
  details_encrypted: string;
  created: string;
}

export type InboundMailRow = InboundMailsTable;

/** Kept beside inbound mail (as `ai_usage` is beside the gateway): only mail code reads it. */
export class InboundMailsRepository {
  private readonly db: Kysely<{ inbound_mails: InboundMailsTable }>;

  constructor(database: ConfabDatabase) {
    this.db = database.db.withTables<{ inbound_mails: InboundMailsTable }>() as unknown as Kysely<{ inbound_mails: InboundMailsTable }>;
  }

  async insert(row: InboundMailRow): Promise<void> {
    await this.db.insertInto('inbound_mails').values(row).execute();
  }

  /** The chat's latest received mail, if any. */
  async latestOf(chatId: string): Promise<InboundMailRow | undefined> {
    return this.db.selectFrom('inbound_mails').selectAll().where('chat', '=', chatId).orderBy('created', 'desc').orderBy('message', 'desc').executeTakeFirst();
  }
}
