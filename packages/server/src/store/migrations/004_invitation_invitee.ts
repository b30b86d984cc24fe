import type { Kysely, Migration } from 'kysely';

/**
 * The account an e-mail invitation was meant for, when the address had one at the time of the
 * invitation. In-app invitations (GET /api/my-invitations) are listed by this column, not by the
 * e-mail alone: e-mail addresses are not verified, so an account registered with someone's
 * address after they were invited must not see (and accept) what was mailed to them. Invitations
 * to addresses without an account stay null and are redeemed with the mailed token only.
 */
export const invitationInviteeMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('invitations')
      .addColumn('invitee', 'text', (column) => column.references('users.id').onDelete('cascade'))
      .execute();
    await db.schema.createIndex('invitations_invitee_index').on('invitations').column('invitee').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('invitations_invitee_index').execute();
    await db.schema.alterTable('invitations').dropColumn('invitee').execute();
  },
};
