import type { Kysely, Selectable } from 'kysely';
import type { Database, InvitationsTable, ShareLinksTable } from '../schema';

export type InvitationRow = Selectable<InvitationsTable>;
export type ShareLinkRow = Selectable<ShareLinksTable>;

export interface PendingInvitationRow {
  id: string;
  created: string;
  expires: string;
  chat_id: string;
  chat_name: string;
  inviter_username: string | null;
  inviter_name: string | null;
}

/**
 * E-mail invitations and share links. Tokens are stored only as sha256 hashes; every redemption
 * is one conditional UPDATE whose affected-row count decides, so limits hold under concurrency
 * and across instances.
 */
export class InvitationsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insertInvitation(row: InvitationRow): Promise<void> {
    await this.db.insertInto('invitations').values(row).execute();
  }

  /**
   * A new e-mail invitation replaces the pending one of the same chat and address (its link stops
   * working), so a person has at most one pending invitation per chat.
   */
  async replacePendingInvitation(row: InvitationRow): Promise<void> {
    await this.db.transaction().execute(async (transaction) => {
      await transaction
        .deleteFrom('invitations')
        .where('chat', '=', row.chat)
        .where('email', '=', row.email)
        .where('link_type', '=', row.link_type)
        .where('accepted_at', 'is', null)
        .execute();
      await transaction.insertInto('invitations').values(row).execute();
    });
  }

  async findInvitationById(id: string): Promise<InvitationRow | undefined> {
    return this.db.selectFrom('invitations').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /**
   * The pending e-mail invitations of an account: meant for it (`invitee`) at its current e-mail,
   * unaccepted, unexpired, to chats it is not in yet; newest first, with the chat's name and the
   * inviter (null once deleted).
   */
  async pendingForInvitee(userId: string, email: string, now: string): Promise<PendingInvitationRow[]> {
    return this.db
      .selectFrom('invitations')
      .innerJoin('chats', 'chats.id', 'invitations.chat')
      .leftJoin('users as inviter', 'inviter.id', 'invitations.invited_by')
      .select([
        'invitations.id as id',
        'invitations.created as created',
        'invitations.expires as expires',
        'chats.id as chat_id',
        'chats.name as chat_name',
        'inviter.username as inviter_username',
        'inviter.name as inviter_name',
      ])
      .where('invitations.invitee', '=', userId)
      .where('invitations.email', '=', email)
      .where('invitations.link_type', '=', 'email')
      .where('invitations.accepted_at', 'is', null)
      .where('invitations.expires', '>', now)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('chat_participants')
              .select('chat_participants.chat_id')
              .whereRef('chat_participants.chat_id', '=', 'invitations.chat')
              .where('chat_participants.user_id', '=', userId),
          ),
        ),
      )
      .orderBy('invitations.created', 'desc')
      .orderBy('invitations.id')
      .execute();
  }

  /** Removes an unaccepted invitation (declined); false when it was accepted or gone meanwhile. */
  async deletePendingInvitation(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('invitations').where('id', '=', id).where('accepted_at', 'is', null).executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }

  async findInvitationByHash(tokenHash: string): Promise<InvitationRow | undefined> {
    return this.db.selectFrom('invitations').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  }

  /** Single use: true only for the one caller that marks an unexpired, unaccepted invitation accepted. */
  async consumeInvitation(id: string, userId: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('invitations')
      .set({ accepted_by: userId, accepted_at: now, updated: now })
      .where('id', '=', id)
      .where('accepted_at', 'is', null)
      .where('expires', '>', now)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** A new link revokes every earlier unrevoked link of the chat, in one transaction. */
  async replaceShareLink(row: ShareLinkRow): Promise<void> {
    await this.db.transaction().execute(async (transaction) => {
      await transaction
        .updateTable('share_links')
        .set({ revoked_at: row.created, updated: row.created })
        .where('chat', '=', row.chat)
        .where('revoked_at', 'is', null)
        .execute();
      await transaction.insertInto('share_links').values(row).execute();
    });
  }

  async findShareLinkByHash(tokenHash: string): Promise<ShareLinkRow | undefined> {
    return this.db.selectFrom('share_links').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  }

  /**
   * Spends one use: `use_count = use_count + 1 WHERE use_count < max_uses AND expires > now AND
   * revoked_at IS NULL`, bound to the link's chat. True only when exactly one row changed.
   */
  async redeemShareLink(id: string, chatId: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('share_links')
      .set((eb) => ({ use_count: eb('use_count', '+', 1), updated: now }))
      .where('id', '=', id)
      .where('chat', '=', chatId)
      .whereRef('use_count', '<', 'max_uses')
      .where('expires', '>', now)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Gives back a use spent by a join that then failed. */
  async releaseShareLinkUse(id: string): Promise<void> {
    await this.db
      .updateTable('share_links')
      .set((eb) => ({ use_count: eb('use_count', '-', 1) }))
      .where('id', '=', id)
      .where('use_count', '>', 0)
      .execute();
  }
}
